package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// elicit config check lists the permission rules with their files and
// lines, and flags the ones that can never decide (exit 1); good rules
// pass (exit 0); a rule it cannot read is the usual config error.
func TestConfigCheckRules(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "config.toml")
	policy := filepath.Join(dir, "ci.toml")
	write := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(conf, "[permissions]\nallow = [\"Bash(npm test:*)\", \"Edit(src/**)\"]\n\n[agents.c]\ncommand = [\"c\"]\n[agents.c.permissions]\nask = [\"Bash(git push:*)\"]\n")
	write(policy, "[permissions]\ndeny = [\"Bash(rm:*)\"]\n")
	r := runTree(t, "", "config", "check", "--config", conf, "--policy", policy)
	if r.code != 0 {
		t.Fatalf("%v", r)
	}
	for _, want := range []string{"allow Bash(npm test:*)  (" + conf + ":2)", "deny  Bash(rm:*)  (" + policy + ":2)", "for elicit c, also:\n  ask   Bash(git push:*)  (" + conf + ":7)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q:\n%s", want, r.stdout)
		}
	}
	write(policy, "[permissions]\ndeny = [\"Bash\"]\nallow = [\"Task(explore)\"]\n")
	r = runTree(t, "", "config", "check", "--config", conf, "--policy", policy)
	if r.code != 1 || !strings.Contains(r.stderr, "3 permission rules can never decide anything") ||
		!strings.Contains(r.stdout, "allow Bash(npm test:*)  ("+conf+":2)\n        ^ never decides: the deny rule Bash in "+policy+":2") ||
		!strings.Contains(r.stdout, "^ elicit reads no specifier for Task") {
		t.Errorf("%v", r)
	}
	write(policy, "[permissions]\ndeny = [\"Bash(\"]\n")
	r = runTree(t, "", "config", "check", "--config", conf, "--policy", policy)
	if r.code != 1 || !strings.Contains(r.stderr, policy+`:2: [permissions] deny: rule "Bash("`) {
		t.Errorf("%v", r)
	}
}
