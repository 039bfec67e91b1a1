package acpconn

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// startRaw runs the named script with extra environment entries and does
// not create a session.
func startRaw(t *testing.T, agent string, cfg Config, env ...string) *Conn {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Argv = []string{self, "-test.run=^$"}
	cfg.Env = append(append(os.Environ(), "ACPCONN_TEST_AGENT="+agent), env...)
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	if cfg.StartTimeout == 0 { // a start is slow on a busy machine, never late
		cfg.StartTimeout = testkit.Hang
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// hangCtx is a context that ends with the test, or at testkit.Hang.
func hangCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	t.Cleanup(cancel)
	return ctx
}

func TestSignInShapesAreRead(t *testing.T) {
	c := startRaw(t, "raw-signin", Config{})
	self := c.cfg.Argv[0]
	got := map[string]AuthMethod{}
	for _, m := range c.AuthMethods() {
		got[m.ID] = m
	}
	// The agent's whole command line (here the test binary and its flag),
	// with the method's arguments after it.
	want := map[string]struct {
		kind AuthKind
		cmd  []string
	}{
		"claude-ai-login": {AuthTerminal, []string{self, "-test.run=^$", "--cli", "auth", "login", "--claudeai"}},
		"copilot-login":   {AuthTerminal, []string{"/opt/copilot/copilot", "login"}},
		"openai":          {AuthTerminal, []string{self, "-test.run=^$", "--auth-type=openai"}},
		"opencode-login":  {AuthTerminal, []string{"opencode", "auth", "login"}},
		"codex-api-key":   {AuthEnvVar, nil},
		"gemini-api-key":  {AuthAPIKey, nil},
	}
	if len(got) != len(want) {
		t.Fatalf("methods: %+v (the terminal ones need auth.terminal declared)", got)
	}
	for id, w := range want {
		m := got[id]
		if m.Kind != w.kind || !reflect.DeepEqual(m.Command, w.cmd) {
			t.Errorf("%s: kind %v command %q, want %v %q", id, m.Kind, m.Command, w.kind, w.cmd)
		}
	}
	if v := got["codex-api-key"].Vars; len(v) != 1 || v[0].Name != "CODEX_API_KEY" {
		t.Errorf("codex vars: %+v", v)
	}
}

func TestTerminalMethodNeverAuthenticates(t *testing.T) {
	c := startRaw(t, "raw-signin", Config{})
	ctx := hangCtx(t)
	for _, id := range []string{"claude-ai-login", "copilot-login", "openai", "opencode-login"} {
		if err := c.Authenticate(ctx, id); !errors.Is(err, ErrTerminalMethod) {
			t.Fatalf("%s: %v, want ErrTerminalMethod", id, err)
		}
	}
	// The agent exits 5 if it ever saw one; it still answers.
	_, err := c.NewSession(ctx)
	if err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY is not set") {
		t.Fatalf("session/new: %v, want the agent's string data in the error", err)
	}
}

func TestAPIKeyGoesInAuthenticateMeta(t *testing.T) {
	c := startRaw(t, "raw-signin", Config{})
	ctx := hangCtx(t)
	err := c.AuthenticateKey(ctx, "gemini-api-key", "wrong")
	if !IsAuthRequired(err) || AgentReason(err) != "Gemini API key is missing or not configured." {
		t.Fatalf("wrong key: %v (reason %q)", err, AgentReason(err))
	}
	if err := c.AuthenticateKey(ctx, "gemini-api-key", "sekret"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewSession(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestEnvVarMethodNeedsTheVariable(t *testing.T) {
	ctx := hangCtx(t)
	c := startRaw(t, "raw-signin", Config{})
	m, _ := c.findAuthMethod("codex-api-key")
	if miss := m.Missing([]string{"CODEX_API_KEY="}); !reflect.DeepEqual(miss, []string{"CODEX_API_KEY"}) {
		t.Errorf("missing: %q", miss)
	}
	err := c.Authenticate(ctx, "codex-api-key")
	if AgentReason(err) != "Authentication required: CODEX_API_KEY is not set" {
		t.Fatalf("without the variable: %v (reason %q)", err, AgentReason(err))
	}
	c2 := startRaw(t, "raw-signin", Config{}, "CODEX_API_KEY=k")
	if err := c2.Authenticate(ctx, "codex-api-key"); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.NewSession(ctx); err != nil {
		t.Fatal(err)
	}
}

// The authMethods of the agents surveyed, verbatim from their initialize
// answers.
const surveyed = `[
 {"description":"Use Claude subscription ","name":"Claude Subscription","id":"claude-ai-login","type":"terminal","args":["--cli","auth","login","--claudeai"]},
 {"description":"Run ` + "`claude /login`" + ` in the terminal","name":"Log in with Claude Code","id":"claude-login"},
 {"id":"chatgpt","name":"Login with ChatGPT","description":"Use your ChatGPT login with Codex CLI (requires a paid ChatGPT subscription)"},
 {"type":"env_var","id":"openai-api-key","name":"Use OPENAI_API_KEY","description":"Requires setting the ` + "`OPENAI_API_KEY`" + ` environment variable.","vars":[{"name":"OPENAI_API_KEY"}]},
 {"id":"copilot-login","name":"Log in with Copilot CLI","description":"Run ` + "`copilot login`" + ` in the terminal","_meta":{"terminal-auth":{"command":"/c/copilot","args":["login"],"label":"Copilot Login"}}},
 {"id":"oauth-personal","name":"Log in with Google","description":"Log in with your Google account"},
 {"id":"gemini-api-key","name":"Gemini API key","description":"Use an API key with Gemini Developer API","_meta":{"api-key":{"provider":"google"}}},
 {"id":"gateway","name":"AI API Gateway","description":"Use a custom AI API Gateway","_meta":{"gateway":{"protocol":"google","restartRequired":"false"}}},
 {"description":"Run ` + "`opencode auth login`" + ` in the terminal","name":"Login with opencode","id":"opencode-login"},
 {"id":"openai","name":"Use OpenAI API key","description":"Requires setting the ` + "`OPENAI_API_KEY`" + ` environment variable","_meta":{"type":"terminal","args":["--auth-type=openai"]}}
]`

func TestParseSurveyedAuthMethods(t *testing.T) {
	var ms []acp.AuthMethod
	if err := json.Unmarshal([]byte(surveyed), &ms); err != nil {
		t.Fatal(err)
	}
	got := parseAuthMethods(ms, []string{"npx", "-y", "@scope/agent", "--acp"})
	want := []struct {
		kind AuthKind
		line string
	}{
		{AuthTerminal, "npx -y @scope/agent --cli auth login --claudeai"},
		{AuthTerminal, "claude /login"},
		{AuthAgent, ""},
		{AuthEnvVar, ""},
		{AuthTerminal, "/c/copilot login"},
		{AuthAgent, ""},
		{AuthAPIKey, ""},
		{AuthAgent, ""},
		{AuthTerminal, "opencode auth login"},
		{AuthTerminal, "npx -y @scope/agent --auth-type=openai"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d methods, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Kind != w.kind || got[i].CommandLine() != w.line {
			t.Errorf("%s: %v %q, want %v %q", got[i].ID, got[i].Kind, got[i].CommandLine(), w.kind, w.line)
		}
	}
}

func TestAgentReasonAndLoginCommand(t *testing.T) {
	err := error(&acp.RequestError{Code: -32603, Message: "Internal error", Data: "OPENAI_API_KEY is not set"})
	if got := readable(err).Error(); got != "Internal error: OPENAI_API_KEY is not set (-32603)" {
		t.Errorf("readable: %q", got)
	}
	auggie := &acp.RequestError{Code: -32000, Message: "Authentication required: Auggie does not currently support authenticating over ACP. Please run `auggie login` from your terminal then try again."}
	if cmd := commandIn(auggie.Message, []string{"/bin/auggie", "--acp"}); !reflect.DeepEqual(cmd, []string{"auggie", "login"}) && !reflect.DeepEqual(cmd, []string{"/bin/auggie", "login"}) {
		t.Errorf("auggie's command: %q", cmd)
	}
	if r := AgentReason(auggie); !strings.Contains(r, "Auggie does not currently support") {
		t.Errorf("reason: %q", r)
	}
}
