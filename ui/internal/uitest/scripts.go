package uitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func init() {
	// sessions lists two past sessions and loads one with a replay (two
	// messages, distinct ids); its prompt answers with two messages. With
	// ELICIT_UI_TEST_NO_RESUME set it cannot resume, only load.
	Scripts["sessions"] = func(a *RawAgent) {
		wd, _ := os.Getwd()
		caps := map[string]any{"list": map[string]any{}, "resume": map[string]any{}, "close": map[string]any{}}
		if os.Getenv("ELICIT_UI_TEST_NO_RESUME") != "" {
			delete(caps, "resume")
		}
		a.Serve(map[string]any{"agentCapabilities": map[string]any{"loadSession": true, "sessionCapabilities": caps}},
			func(m, p map[string]any) {
				switch m["method"] {
				case "session/new":
					a.Reply(m, map[string]any{"sessionId": "s-fresh"})
				case "session/list":
					a.Reply(m, map[string]any{"sessions": []any{
						map[string]any{"sessionId": "s-old", "cwd": wd, "title": "fix the parser", "updatedAt": "2026-01-01T09:00:00Z"},
						map[string]any{"sessionId": "s-older", "cwd": wd, "title": "write docs", "updatedAt": "2025-12-01T09:00:00Z"}}})
				case "session/load":
					sid := p["sessionId"].(string)
					a.Update(sid, map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": "why does it fail"}})
					a.Say(sid, "r1", "because of the comma")
					a.Update(sid, map[string]any{"sessionUpdate": "session_info_update", "title": "fix the parser"})
					a.Reply(m, map[string]any{})
				case "session/close", "session/resume":
					a.Reply(m, map[string]any{})
				case "session/prompt":
					sid := p["sessionId"].(string)
					a.Say(sid, "a1", "first message")
					a.Say(sid, "a2", "second message")
					a.Update(sid, map[string]any{"sessionUpdate": "usage_update", "used": 13100, "size": 1000000, "cost": map[string]any{"amount": 0.39, "currency": "USD"}})
					a.Send(map[string]any{"jsonrpc": "2.0", "method": "noise"})
					a.Out.WriteString("Please visit https://example.com/auth to sign in\n")
					a.Out.Flush()
					a.Reply(m, map[string]any{"stopReason": "end_turn"})
				}
			})
	}

	// settings sends modes and a mode option with the same values (as
	// claude, codex and qwen do), the unstable models, one more option.
	Scripts["settings"] = func(a *RawAgent) {
		mode, model := "ask", "m1"
		opts := func() []any {
			return []any{
				map[string]any{"id": "mode", "name": "Mode", "category": "mode", "type": "select", "currentValue": mode, "options": []any{
					map[string]any{"value": "ask", "name": "Ask", "description": "asks before edits"}, map[string]any{"value": "code", "name": "Code"}}},
				map[string]any{"id": "effort", "name": "Effort", "type": "select", "currentValue": "low", "options": []any{
					map[string]any{"value": "low", "name": "Low"}, map[string]any{"value": "high", "name": "High"}}},
			}
		}
		var cmds []any
		for i := 0; i < 9; i++ {
			cmds = append(cmds, map[string]any{"name": fmt.Sprintf("cmd%d", i), "description": fmt.Sprintf("command number %d", i)})
		}
		cmds = append(cmds, map[string]any{"name": "memory show", "description": "show the memory", "input": map[string]any{"hint": "[section]"}},
			map[string]any{"name": "memory add", "description": "add to the memory", "input": map[string]any{"hint": "<text>"}})
		a.Serve(nil, func(m, p map[string]any) {
			switch m["method"] {
			case "session/new":
				a.Reply(m, map[string]any{"sessionId": "s1",
					"modes":         map[string]any{"currentModeId": mode, "availableModes": []any{map[string]any{"id": "ask", "name": "Ask"}, map[string]any{"id": "code", "name": "Code"}}},
					"models":        map[string]any{"currentModelId": model, "availableModels": []any{map[string]any{"modelId": "m1", "name": "Model One"}, map[string]any{"modelId": "m2", "name": "Model Two", "description": "the big one"}}},
					"configOptions": opts()})
				a.Update("s1", map[string]any{"sessionUpdate": "available_commands_update", "availableCommands": cmds})
			case "session/set_config_option":
				mode = p["value"].(string)
				a.Reply(m, map[string]any{"configOptions": opts()})
			case "session/set_mode":
				os.Exit(6) // the mode option wins: set_mode is never used
			case "session/set_model":
				model = p["modelId"].(string)
				a.Reply(m, map[string]any{})
			case "session/prompt":
				a.Say("s1", "", "mode="+mode+" model="+model)
				a.Reply(m, map[string]any{"stopReason": "end_turn"})
			}
		})
	}

	// bare offers no mode, model or option.
	Scripts["bare"] = func(a *RawAgent) {
		a.Serve(nil, func(m, p map[string]any) {
			if m["method"] == "session/new" {
				a.Reply(m, map[string]any{"sessionId": "s1"})
			}
		})
	}

	// setup asks a request-scoped form while it handles session/new.
	Scripts["setup"] = func(a *RawAgent) {
		a.Serve(nil, func(m, p map[string]any) {
			if m["method"] == "session/prompt" {
				sid := p["sessionId"].(string)
				a.Say(sid, "", "in "+sid)
				a.Reply(m, map[string]any{"stopReason": "end_turn"})
				return
			}
			if m["method"] != "session/new" {
				return
			}
			resp := a.Request("elicitation/create", map[string]any{"requestId": m["id"], "mode": "form", "message": "Which workspace?",
				"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"workspace": map[string]any{"type": "string"}}, "required": []any{"workspace"}}})
			res, _ := resp["result"].(map[string]any)
			content, _ := res["content"].(map[string]any)
			if res["action"] != "accept" {
				a.Fail(m, -32603, "setup declined", nil)
				return
			}
			a.Reply(m, map[string]any{"sessionId": fmt.Sprint("ws-", content["workspace"])})
		})
	}
}

func init() {
	// signin offers a protocol terminal method (the test binary with
	// LoginFlag), copilot's _meta["terminal-auth"] (the script in
	// ELICIT_UI_TEST_LOGIN_SH), an env_var and an api-key method. It
	// refuses session/new (or, with ELICIT_UI_TEST_AT=prompt, the prompt)
	// until signed in; a terminal method sent to authenticate ends it.
	// signin-qwen offers sign-in as qwen-code 0.24.4 does: its _meta
	// terminal method, whose args replace the --acp flag (here the test
	// binary's sign-in flag), and needs it before session/new.
	Scripts["signin-qwen"] = func(a *RawAgent) {
		a.Serve(map[string]any{"authMethods": []any{
			map[string]any{"id": "openai", "name": "Use OpenAI API key", "description": "Requires setting the `OPENAI_API_KEY` environment variable",
				"_meta": map[string]any{"type": "terminal", "args": []any{LoginFlag}}},
		}}, func(m, p map[string]any) {
			switch m["method"] {
			case "session/new":
				if !SignedIn() {
					a.Fail(m, -32000, "Authentication required", nil)
					return
				}
				a.Reply(m, map[string]any{"sessionId": "s1"})
			case "authenticate":
				os.Exit(5) // a terminal method is never sent to authenticate
			}
		})
	}
	Scripts["signin"] = func(a *RawAgent) {
		self, _ := os.Executable()
		_ = self
		atPrompt := os.Getenv("ELICIT_UI_TEST_AT") == "prompt"
		authed := false
		ok := func() bool { return authed || SignedIn() }
		a.Serve(map[string]any{"authMethods": []any{
			map[string]any{"type": "terminal", "id": "term", "name": "Log in here", "args": []any{LoginFlag}},
			map[string]any{"id": "copilot", "name": "Copilot login", "_meta": map[string]any{"terminal-auth": map[string]any{"command": os.Getenv("ELICIT_UI_TEST_LOGIN_SH"), "args": []any{"from-copilot"}}}},
			map[string]any{"type": "env_var", "id": "env", "name": "Use ELICIT_TEST_KEY", "vars": []any{map[string]any{"name": "ELICIT_TEST_KEY"}}},
			map[string]any{"id": "gem", "name": "Gemini API key", "_meta": map[string]any{"api-key": map[string]any{"provider": "google"}}},
		}}, func(m, p map[string]any) {
			switch m["method"] {
			case "session/new":
				if !atPrompt && !ok() {
					a.Fail(m, -32000, "Authentication required", "please sign in")
					return
				}
				a.Reply(m, map[string]any{"sessionId": "s1"})
			case "authenticate":
				switch p["methodId"] {
				case "env":
					if os.Getenv("ELICIT_TEST_KEY") != "zq9secret" {
						a.Fail(m, -32000, "ELICIT_TEST_KEY is not set", nil)
						return
					}
				case "gem":
					meta, _ := p["_meta"].(map[string]any)
					if meta["api-key"] != "sekret" {
						a.Fail(m, -32000, "Gemini API key is missing or not configured.", nil)
						return
					}
				default:
					os.Exit(5)
				}
				authed = true
				a.Reply(m, map[string]any{})
			case "session/prompt":
				if !ok() {
					a.Fail(m, -32000, "Authentication required", nil)
					return
				}
				a.Say("s1", "m1", "hello from a signed-in agent")
				a.Reply(m, map[string]any{"stopReason": "end_turn"})
			}
		})
	}
}

// WrappedAgent returns the agent's command line for the signin-qwen
// script run through a wrapper ("env", "sh": a shell script, "npx": a
// local package whose bin runs the agent), each setting WrappedEnv to its
// name, with qwen's --acp at the end; ok is false when the wrapper is not
// installed.
func WrappedAgent(t *testing.T, wrapper string) (argv []string, ok bool) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	switch wrapper {
	case "env":
		return []string{"env", WrappedEnv + "=env", self, "-test.run=^$", "--acp"}, true
	case "sh":
		sh := filepath.Join(dir, "as-agent.sh")
		if err := os.WriteFile(sh, []byte("#!/bin/sh\n"+WrappedEnv+"=sh exec \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return []string{sh, self, "-test.run=^$", "--acp"}, true
	case "npx":
		if _, err := exec.LookPath("npx"); err != nil {
			return nil, false
		}
		if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		pkg := `{"name":"elicit-test-agent","version":"1.0.0","bin":{"elicit-test-agent":"bin/agent.sh"}}`
		bin := "#!/bin/sh\n" + WrappedEnv + "=npx exec '" + self + "' -test.run=^$ \"$@\"\n"
		if os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644) != nil ||
			os.WriteFile(filepath.Join(dir, "bin", "agent.sh"), []byte(bin), 0o755) != nil {
			t.Fatal("writing the npx package")
		}
		return []string{"npx", "--yes", dir, "--acp"}, true
	}
	t.Fatalf("no wrapper %q", wrapper)
	return nil, false
}

// SignInEnv is the environment of the signin agent: where the sign-in
// marker goes and the login script that writes it.
func SignInEnv(t *testing.T, extra ...string) []string {
	dir := t.TempDir()
	sh := filepath.Join(dir, "login.sh")
	if err := os.WriteFile(sh, []byte("#!/bin/sh\necho \"$1\" > \"$ELICIT_UI_TEST_MARKER\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return append([]string{"ELICIT_UI_TEST_MARKER=" + filepath.Join(dir, "marker"), "ELICIT_UI_TEST_LOGIN_SH=" + sh}, extra...)
}
