package line

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

// "Always allow here" in the line session: the extra numbered choice
// answers allow_once and keeps the rule; the next npm test is allowed by
// it without a question; /permissions lists it and removes it.
func TestLinesAlwaysAllowHere(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "config.toml")
	agent := uitest.ScriptConfig(t, "claude-permission")
	root, err := filepath.EvalSymlinks(agent.Dir)
	if err != nil {
		t.Fatal(err)
	}
	proj := config.ProjectFor(conf, root)
	out, pw, _ := startRun(t, Options{Agent: agent, Memory: ui.Memory{Rules: permissions.NewSet(), ConfigPath: conf}})
	answer(t, out, pw, []step{
		{"Connected to", "npm test"},
		{"4. Always allow here: Bash(npm test:*) (elicit keeps the rule for this directory)", "4"},
		{"npm test: chose allow-once", "npm test --watch"},
		{"npm test --watch: chose allow-once", "/permissions"},
		{"1. allow Bash(npm test:*)", "/permissions remove 1"},
		{"removed Bash(npm test:*)", "npm test"},
	})
	out.WaitCount(t, "Type an option's number", 2) // asked again
	if _, err := pw.Write([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	out.WaitFor(t, "npm test: cancelled")
	s := out.String()
	for _, want := range []string{"always allowed here: Bash(npm test:*), kept in " + proj.Path,
		"permission for npm test --watch: Yes (allowed by Bash(npm test:*) in " + filepath.Base(proj.Path) + ")"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in:\n%s", want, s)
		}
	}
	if b, err := os.ReadFile(proj.Path); err != nil || strings.Contains(string(b), "npm test") {
		t.Errorf("the project's file after remove: %q %v", b, err)
	}
}
