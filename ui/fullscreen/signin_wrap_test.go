package fullscreen

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// Terminal sign-in runs the agent's own command line, wrapper and all:
// started through env, a shell script or npx, qwen's method runs through
// the same wrapper with its args in place of --acp.
func TestTerminalSignInThroughWrappers(t *testing.T) {
	for _, w := range []string{"env", "sh", "npx"} {
		t.Run(w, func(t *testing.T) {
			argv, ok := uitest.WrappedAgent(t, w)
			if !ok {
				t.Skip(w + " is not installed")
			}
			env := uitest.SignInEnv(t)
			cfg := uitest.ScriptConfig(t, "signin-qwen", env...)
			cfg.Argv = argv
			d := newDriver(t, Options{Agent: cfg})
			d.signInShown()
			want := append(append([]string(nil), argv[:len(argv)-1]...), uitest.LoginFlag)
			got := d.m.queue.front().(*signInModal).choices[0].act.(signInAct).method
			if !slices.Equal(got.Command, want) || got.Guess || !strings.Contains(d.screen(), "runs in this terminal: "+argv[0]) {
				t.Errorf("the command %q (guess %v), want %q:\n%s", got.Command, got.Guess, want, d.screen())
			}
			d.key("enter")
			d.until("the session", func() bool { return d.m.acp().connState == connReady })
			m := uitest.Marker(env)
			if !strings.Contains(m, "wrapped="+w+";") || !strings.HasSuffix(m, "args=-test.run=^$ "+uitest.LoginFlag) {
				t.Errorf("the sign-in command ran as %q", m)
			}
		})
	}
}

// A command elicit can only guess (a script that adds --acp itself) is
// shown for editing; the edited line is what runs.
func TestGuessedSignInIsEdited(t *testing.T) {
	self, _ := os.Executable()
	sh := filepath.Join(t.TempDir(), "qwen-acp.sh")
	if err := os.WriteFile(sh, []byte("#!/bin/sh\nexec '"+self+"' -test.run=^$ --acp \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := uitest.SignInEnv(t)
	cfg := uitest.ScriptConfig(t, "signin-qwen", env...)
	cfg.Argv = []string{sh}
	d := newDriver(t, Options{Agent: cfg})
	d.signInShown()
	if !strings.Contains(d.screen(), "check it first") {
		t.Errorf("the guess is not marked:\n%s", d.screen())
	}
	d.key("enter")
	d.until("the command editor", func() bool { _, ok := d.m.queue.front().(*loginEditModal); return ok })
	d.focus()
	if !strings.Contains(d.screen(), "$ "+sh+" "+uitest.LoginFlag) {
		t.Errorf("the editor does not hold the command:\n%s", d.screen())
	}
	d.key("ctrl+u")
	d.typeText(`echo edited > "$ELICIT_UI_TEST_MARKER"`)
	d.key("enter")
	d.until("the session", func() bool { return d.m.acp().connState == connReady })
	if m := uitest.Marker(env); m != "edited\n" {
		t.Errorf("the edited line did not run: %q", m)
	}
}
