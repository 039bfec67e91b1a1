package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// Sign-in without asking, as in -p and the line session: --api-key-env's
// key (or an env_var method whose variables are set) signs in before any
// dialog shows, and the key is never drawn.
func TestSignInWithoutAsking(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t, "GEM_KEY=sekret")...), APIKeyEnv: "GEM_KEY"})
	d.until("the session", func() bool { return d.m.acp().connState == connReady })
	d.waitText("signed in with Gemini API key (the key in GEM_KEY)")
	if d.m.acp().signingIn() || strings.Contains(d.screen(), "sekret") {
		t.Fatalf("a dialog, or the key:\n%s", d.screen())
	}
	d = newDriver(t, Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t, "ELICIT_TEST_KEY=zq9secret")...)})
	d.until("the session", func() bool { return d.m.acp().connState == connReady })
	d.waitText("signed in with Use ELICIT_TEST_KEY (its variables are set)")
}
