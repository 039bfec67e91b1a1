package fullscreen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/permissions"
	"github.com/elicit-dev/elicit/ui"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// "Always allow here" on npm test: the agent gets its allow_once option
// (not its always one), the rule goes to the project's file and the
// transcript says where; the next npm test is allowed by the rule without
// asking, git status is still asked; /permissions lists the rule and
// removes it, and npm test is asked again.
func TestAlwaysAllowHere(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "config.toml")
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "claude-permission"), Memory: ui.Memory{Rules: permissions.NewSet(), ConfigPath: conf}})
	d.connected()
	d.ask("npm test")
	d.until("the permission modal", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	d.focus()
	d.wantOnScreen("1 Yes", "3 No", "4 Always allow here: Bash(npm test:*)")
	d.keys("4", "enter")
	d.waitText("npm test: chose allow-once")
	proj := config.ProjectFor(conf, d.m.acp().conn.Root())
	d.inTranscript("always allowed here: Bash(npm test:*), kept in " + proj.Path)
	if b, err := os.ReadFile(proj.Path); err != nil || !strings.Contains(string(b), "Bash(npm test:*)") {
		t.Fatalf("the project's file: %q %v", b, err)
	}
	d.idle()

	d.ask("npm test --watch")
	d.waitText("npm test --watch: chose allow-once")
	d.inTranscript("permission for npm test --watch: Yes (allowed by Bash(npm test:*) in " + filepath.Base(proj.Path) + ")")
	d.idle()

	d.ask("git status")
	d.until("the permission modal", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	d.focus()
	d.keys("3", "enter")
	d.waitText("git status: chose reject")
	d.idle()

	d.ask("/permissions")
	d.inTranscript("1. allow Bash(npm test:*)  (" + proj.Path + ":")
	d.ask("/permissions remove 1")
	d.inTranscript("removed Bash(npm test:*) from " + proj.Path)
	d.ask("npm test")
	d.until("the permission modal", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	d.focus()
	d.keys("esc")
	d.waitText("npm test: cancelled")
}

// The choice is offered only where a rule can be kept: not without a
// project (no config file), not for a compound command, not when a rule
// already names the call.
func TestAlwaysAllowHereNotOffered(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "claude-permission")})
	d.connected()
	d.ask("npm test && rm -rf /")
	d.until("the permission modal", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	d.focus()
	if s := d.screen(); strings.Contains(s, "Always allow here") {
		t.Errorf("offered without a project:\n%s", s)
	}
	if p := d.m.queue.front().(*permModal); p.choices() != 3 {
		t.Errorf("%d choices", p.choices())
	}
}

// inTranscript waits until the transcript (unwrapped) holds s.
func (d *driver) inTranscript(s string) {
	d.t.Helper()
	d.until("the transcript to hold "+s, func() bool { return strings.Contains(d.m.Transcript(), s) })
}
