package cmd

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The scripted sign-in agents: the test binary runs as one when
// ELICIT_CLI_TEST_AGENT names it (see TestMain), speaking JSON-RPC lines
// on its stdio. Each refuses session/new with -32000 until authenticate
// succeeds.
const (
	testAgentVar = "ELICIT_CLI_TEST_AGENT"
	tokenVar     = "ELICIT_E2E_TOKEN" // what the env agent's method needs
	theToken     = "tok-7"
	theKey       = "zq9-Key/\"Secret\"" // JSON-escaped on the wire
)

var testAgentMethods = map[string][]any{
	// env offers only an env_var method.
	"env": {map[string]any{"type": "env_var", "id": "env", "name": "Use " + tokenVar, "vars": []any{map[string]any{"name": tokenVar}}}},
	// key offers only an api-key method (gemini's _meta form).
	"key": {map[string]any{"id": "key", "name": "Test API key", "_meta": map[string]any{"api-key": map[string]any{"provider": "test"}}}},
}

// runTestAgent is the scripted agent name; it returns at end of input.
func runTestAgent(name string) {
	if name == webFormAgent {
		runWebFormAgent() // inbox_web_agent_test.go
		return
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	out := json.NewEncoder(os.Stdout)
	authed := false
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params map[string]any  `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || m.Method == "" {
			continue
		}
		reply := func(result any) { out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result}) }
		refuse := func(msg string) {
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32000, "message": msg}})
		}
		switch m.Method {
		case "initialize":
			reply(map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": testAgentMethods[name], "agentInfo": map[string]any{"name": "signin-" + name}})
		case "authenticate":
			meta, _ := m.Params["_meta"].(map[string]any)
			switch {
			case name == "env" && m.Params["methodId"] == "env" && os.Getenv(tokenVar) == theToken:
			case name == "key" && m.Params["methodId"] == "key" && meta["api-key"] == theKey:
			default:
				refuse("wrong credentials")
				continue
			}
			authed = true
			reply(map[string]any{})
		case "session/new":
			if !authed {
				refuse("Authentication required")
				continue
			}
			reply(map[string]any{"sessionId": "s1"})
		case "session/prompt":
			out.Encode(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": "s1",
				"update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "hello from " + name}}}})
			reply(map[string]any{"stopReason": "end_turn"})
		}
	}
}

// testAgentArgv runs this test binary as a scripted agent.
func testAgentArgv(t *testing.T) []string {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{self, "-test.run=^$"}
}

// -p against an agent that offers only an env_var method: signed in with
// it when its variable is set; otherwise exit 1 with the method and what
// to set.
func TestPromptSignsInWithEnvVar(t *testing.T) {
	env := []string{testAgentVar + "=env", "XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()}
	args := append([]string{"-p", "hi", "--cwd", t.TempDir(), "--"}, testAgentArgv(t)...)
	r := runBinary(t, append(env, tokenVar+"="+theToken), "", args...)
	if r.code != 0 || r.stdout != "hello from env\n" || !strings.Contains(r.stderr, "signed in with Use "+tokenVar+" (its variables are set)") {
		t.Errorf("variable set: %v", r)
	}
	r = runBinary(t, append(env, tokenVar+"="), "", args...)
	if r.code != exitFailed || r.stdout != "" {
		t.Errorf("variable unset: %v", r)
	}
	for _, want := range []string{"the agent requires sign-in: Authentication required", "Use " + tokenVar + ": set " + tokenVar + " in the environment"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("variable unset: stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// -p against an agent that offers an api-key method: --api-key-env NAME
// sends the key in NAME in authenticate's _meta, and the --log trace
// shows it redacted; without it, the error names the flag.
func TestPromptSignsInWithAPIKeyEnv(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.log")
	env := []string{testAgentVar + "=key", "MY_TEST_KEY=" + theKey, "XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()}
	agent := append([]string{"--"}, testAgentArgv(t)...)
	r := runBinary(t, env, "", append([]string{"-p", "hi", "--api-key-env", "MY_TEST_KEY", "--log", trace, "--cwd", t.TempDir()}, agent...)...)
	if r.code != 0 || r.stdout != "hello from key\n" || !strings.Contains(r.stderr, "signed in with Test API key (the key in MY_TEST_KEY)") {
		t.Fatalf("--api-key-env: %v", r)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	if !strings.Contains(log, `"method":"authenticate"`) || !strings.Contains(log, `"_meta":{"api-key":"[redacted]"}`) {
		t.Errorf("the trace lacks the redacted authenticate:\n%s", log)
	}
	for _, leak := range []string{"zq9", `Key/\"Secret`} {
		if strings.Contains(log, leak) || strings.Contains(r.stderr, leak) {
			t.Errorf("the key (%q) is in the trace or on stderr:\n%s\n%s", leak, log, r.stderr)
		}
	}
	// Without the flag: the method, and the flag to use.
	r = runBinary(t, env, "", append([]string{"-p", "hi", "--cwd", t.TempDir()}, agent...)...)
	if r.code != exitFailed || !strings.Contains(r.stderr, "Test API key: put the key in an environment variable and run elicit with --api-key-env NAME") {
		t.Errorf("no key: %v", r)
	}
	// A variable that is not set is a usage error, before the agent runs;
	// a key given where its variable's name goes is not repeated.
	r = runBinary(t, env, "", append([]string{"-p", "hi", "--api-key-env", "NOT_SET_HERE"}, agent...)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "--api-key-env NOT_SET_HERE: NOT_SET_HERE is not set") {
		t.Errorf("unset variable: %v", r)
	}
	r = runBinary(t, env, "", append([]string{"-p", "hi", "--api-key-env", "sk-zq9-abc"}, agent...)...)
	if r.code != exitUsage || strings.Contains(r.stderr, "zq9") {
		t.Errorf("a key for a name: %v", r)
	}
}

// The config's api_key_env does what --api-key-env does, for that agent.
func TestConfigAPIKeyEnv(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, "elicit", "config.toml")
	os.Mkdir(filepath.Dir(cfg), 0o700)
	argv, _ := json.Marshal(testAgentArgv(t))
	os.WriteFile(cfg, []byte("[agents.keyed]\ncommand = "+string(argv)+"\napi_key_env = \"MY_TEST_KEY\"\nenv = { "+testAgentVar+" = \"key\" }\n"), 0o600)
	env := []string{"MY_TEST_KEY=" + theKey, "XDG_CONFIG_HOME=" + home, "XDG_STATE_HOME=" + t.TempDir()}
	r := runBinary(t, env, "", "keyed", "-p", "hi", "--cwd", t.TempDir())
	if r.code != 0 || r.stdout != "hello from key\n" {
		t.Errorf("api_key_env: %v", r)
	}
}
