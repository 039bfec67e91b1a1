package fullscreen

import (
	"os"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

func (d *driver) signInShown() {
	d.t.Helper()
	d.until("the sign-in dialog", func() bool { _, ok := d.m.queue.front().(*signInModal); return ok })
	d.focus()
}

// The legacy copilot form runs its command in the terminal (here, a shell
// script that writes a file), then the agent starts again and the session
// opens; authenticate is never called for it (the agent would exit).
func TestTerminalSignInRunsTheCommand(t *testing.T) {
	env := uitest.SignInEnv(t)
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "signin", env...)})
	d.signInShown()
	scr := d.screen()
	for _, want := range []string{"please sign in", "runs in this terminal: " + strings.TrimPrefix(env[1], "ELICIT_UI_TEST_LOGIN_SH=") + " from-", "sign-in needed", "esc quits"} {
		if !strings.Contains(scr, want) {
			t.Errorf("sign-in dialog lacks %q:\n%s", want, scr)
		}
	}
	d.keys("down", "enter")
	d.until("the session", func() bool { return d.m.acp().connState == connReady })
	data, err := os.ReadFile(strings.TrimPrefix(env[0], "ELICIT_UI_TEST_MARKER="))
	if err != nil || string(data) != "from-copilot\n" {
		t.Fatalf("the login command did not run: %q %v", data, err)
	}
	d.waitText("starting the agent again")
}

// An env_var method asks for the value in a masked field, restarts the
// agent with it, and the value is never drawn.
func TestEnvVarSignInIsMasked(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t)...)})
	d.signInShown()
	d.keys("down", "down", "enter")
	d.until("the masked field", func() bool { _, ok := d.m.queue.front().(*secretModal); return ok })
	d.typeText("zq9secret")
	if scr := d.screen(); strings.Contains(scr, "zq9secret") || !strings.Contains(scr, "•••") {
		t.Fatalf("the value is drawn:\n%s", scr)
	}
	d.key("enter")
	d.until("the session", func() bool { return d.m.acp().connState == connReady })
	for _, it := range d.m.tr.items {
		if strings.Contains(it.text.String(), "zq9secret") {
			t.Fatalf("the value is in the transcript: %q", it.text.String())
		}
	}
}

// A failed attempt says why and offers the methods again; nothing loops.
func TestAPIKeyFailsThenSucceeds(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t)...)})
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
	d.until("the session", func() bool { return d.m.acp().connState == connReady })
}

func TestEscQuitsSignInAtStart(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t)...)})
	d.signInShown()
	d.key("esc")
	d.until("quit", func() bool { return d.quit })
}

// An agent that refuses the prompt (claude signs in only then) gets
// sign-in offered; the prompt comes back to the input; the protocol
// terminal method runs the agent's binary with its args.
func TestPromptRefusedOffersSignIn(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t, "ELICIT_UI_TEST_AT=prompt")...)})
	d.connected()
	d.typeText("hello")
	d.key("enter")
	d.signInShown()
	if d.m.acp().input.Value() != "hello" {
		t.Errorf("the prompt is not back: %q", d.m.acp().input.Value())
	}
	d.waitText("esc dismisses")
	d.key("enter") // "Log in here": the test binary with uitest.LoginFlag
	d.until("a new session", func() bool { return d.m.acp().connState == connReady && d.m.acp().gen > 0 })
	d.key("enter")
	d.waitText("hello from a signed-in agent")
}
