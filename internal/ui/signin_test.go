package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func init() {
	// signin offers a protocol terminal method (the test binary with
	// loginFlag), copilot's _meta["terminal-auth"] (the script in
	// ELICIT_UI_TEST_LOGIN_SH), an env_var and an api-key method. It
	// refuses session/new (or, with ELICIT_UI_TEST_AT=prompt, the prompt)
	// until signed in; a terminal method sent to authenticate ends it.
	uiScripts["signin"] = func(a *rawAgent) {
		self, _ := os.Executable()
		_ = self
		atPrompt := os.Getenv("ELICIT_UI_TEST_AT") == "prompt"
		authed := false
		ok := func() bool { return authed || signedIn() }
		a.serve(map[string]any{"authMethods": []any{
			map[string]any{"type": "terminal", "id": "term", "name": "Log in here", "args": []any{loginFlag}},
			map[string]any{"id": "copilot", "name": "Copilot login", "_meta": map[string]any{"terminal-auth": map[string]any{"command": os.Getenv("ELICIT_UI_TEST_LOGIN_SH"), "args": []any{"from-copilot"}}}},
			map[string]any{"type": "env_var", "id": "env", "name": "Use ELICIT_TEST_KEY", "vars": []any{map[string]any{"name": "ELICIT_TEST_KEY"}}},
			map[string]any{"id": "gem", "name": "Gemini API key", "_meta": map[string]any{"api-key": map[string]any{"provider": "google"}}},
		}}, func(m, p map[string]any) {
			switch m["method"] {
			case "session/new":
				if !atPrompt && !ok() {
					a.fail(m, -32000, "Authentication required", "please sign in")
					return
				}
				a.reply(m, map[string]any{"sessionId": "s1"})
			case "authenticate":
				switch p["methodId"] {
				case "env":
					if os.Getenv("ELICIT_TEST_KEY") != "zq9secret" {
						a.fail(m, -32000, "ELICIT_TEST_KEY is not set", nil)
						return
					}
				case "gem":
					meta, _ := p["_meta"].(map[string]any)
					if meta["api-key"] != "sekret" {
						a.fail(m, -32000, "Gemini API key is missing or not configured.", nil)
						return
					}
				default:
					os.Exit(5)
				}
				authed = true
				a.reply(m, map[string]any{})
			case "session/prompt":
				if !ok() {
					a.fail(m, -32000, "Authentication required", nil)
					return
				}
				a.say("s1", "m1", "hello from a signed-in agent")
				a.reply(m, map[string]any{"stopReason": "end_turn"})
			}
		})
	}
}

// signInEnv is the environment of the signin agent: where the sign-in
// marker goes and the login script that writes it.
func signInEnv(t *testing.T, extra ...string) []string {
	dir := t.TempDir()
	sh := filepath.Join(dir, "login.sh")
	if err := os.WriteFile(sh, []byte("#!/bin/sh\necho \"$1\" > \"$ELICIT_UI_TEST_MARKER\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return append([]string{"ELICIT_UI_TEST_MARKER=" + filepath.Join(dir, "marker"), "ELICIT_UI_TEST_LOGIN_SH=" + sh}, extra...)
}

func (d *driver) signInShown() {
	d.t.Helper()
	d.until("the sign-in dialog", func() bool { _, ok := d.m.queue.front().(*signInModal); return ok })
	d.focus()
}

// The legacy copilot form runs its command in the terminal (here, a shell
// script that writes a file), then the agent starts again and the session
// opens; authenticate is never called for it (the agent would exit).
func TestTerminalSignInRunsTheCommand(t *testing.T) {
	env := signInEnv(t)
	d := newDriver(t, Options{Agent: scriptConfig(t, "signin", env...)})
	d.signInShown()
	scr := d.screen()
	for _, want := range []string{"please sign in", "runs in this terminal: " + strings.TrimPrefix(env[1], "ELICIT_UI_TEST_LOGIN_SH=") + " from-", "sign-in needed", "esc quits"} {
		if !strings.Contains(scr, want) {
			t.Errorf("sign-in dialog lacks %q:\n%s", want, scr)
		}
	}
	d.keys("down", "enter")
	d.until("the session", func() bool { return d.m.connState == connReady })
	data, err := os.ReadFile(strings.TrimPrefix(env[0], "ELICIT_UI_TEST_MARKER="))
	if err != nil || string(data) != "from-copilot\n" {
		t.Fatalf("the login command did not run: %q %v", data, err)
	}
	d.waitText("starting the agent again")
}

// An env_var method asks for the value in a masked field, restarts the
// agent with it, and the value is never drawn.
func TestEnvVarSignInIsMasked(t *testing.T) {
	d := newDriver(t, Options{Agent: scriptConfig(t, "signin", signInEnv(t)...)})
	d.signInShown()
	d.keys("down", "down", "enter")
	d.until("the masked field", func() bool { _, ok := d.m.queue.front().(*secretModal); return ok })
	d.typeText("zq9secret")
	if scr := d.screen(); strings.Contains(scr, "zq9secret") || !strings.Contains(scr, "•••") {
		t.Fatalf("the value is drawn:\n%s", scr)
	}
	d.key("enter")
	d.until("the session", func() bool { return d.m.connState == connReady })
	for _, it := range d.m.tr.items {
		if strings.Contains(it.text.String(), "zq9secret") {
			t.Fatalf("the value is in the transcript: %q", it.text.String())
		}
	}
}

// A failed attempt says why and offers the methods again; nothing loops.
func TestAPIKeyFailsThenSucceeds(t *testing.T) {
	d := newDriver(t, Options{Agent: scriptConfig(t, "signin", signInEnv(t)...)})
	d.signInShown()
	d.keys("down", "down", "down", "enter")
	d.until("the key field", func() bool { _, ok := d.m.queue.front().(*secretModal); return ok })
	d.typeText("wrong")
	d.key("enter")
	d.signInShown()
	d.waitText("Gemini API key is missing or not configured.")
	d.keys("down", "down", "down", "enter")
	d.until("the key field", func() bool { _, ok := d.m.queue.front().(*secretModal); return ok })
	d.typeText("sekret")
	d.key("enter")
	d.until("the session", func() bool { return d.m.connState == connReady })
}

func TestEscQuitsSignInAtStart(t *testing.T) {
	d := newDriver(t, Options{Agent: scriptConfig(t, "signin", signInEnv(t)...)})
	d.signInShown()
	d.key("esc")
	d.until("quit", func() bool { return d.quit })
}

// An agent that refuses the prompt (claude signs in only then) gets
// sign-in offered; the prompt comes back to the input; the protocol
// terminal method runs the agent's binary with its args.
func TestPromptRefusedOffersSignIn(t *testing.T) {
	d := newDriver(t, Options{Agent: scriptConfig(t, "signin", signInEnv(t, "ELICIT_UI_TEST_AT=prompt")...)})
	d.connected()
	d.typeText("hello")
	d.key("enter")
	d.signInShown()
	if d.m.input.Value() != "hello" {
		t.Errorf("the prompt is not back: %q", d.m.input.Value())
	}
	d.waitText("esc dismisses")
	d.key("enter") // "Log in here": the test binary with loginFlag
	d.until("a new session", func() bool { return d.m.connState == connReady && d.m.gen > 0 })
	d.key("enter")
	d.waitText("hello from a signed-in agent")
}
