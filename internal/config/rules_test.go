package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/permissions"
)

const withRules = `[permissions]
allow = [
  "Bash(npm test:*)",
  'Edit(src/**)',
]
deny = ["Bash(rm:*)"]

[agents.claude]
command = ["claude-agent-acp"]
permissions = { ask = ["Bash(git push:*)"] }

[agents.qwen]
command = ["qwen", "--acp"]

[agents.qwen.permissions]
allow = ["WebFetch(domain:docs.example.com)"]
`

func TestRulesRead(t *testing.T) {
	c, err := Parse([]byte(withRules), "/etc/x/config.toml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range c.RulesFor("claude") {
		got = append(got, r.Verdict.String()+" "+r.String())
	}
	want := []string{
		"allow Bash(npm test:*) in /etc/x/config.toml:3",
		"allow Edit(src/**) in /etc/x/config.toml:4",
		"deny Bash(rm:*) in /etc/x/config.toml:6",
		"ask Bash(git push:*) in /etc/x/config.toml:10",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rules for claude:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	q := c.RulesFor("qwen")
	if len(q) != 4 || q[3].Text != "WebFetch(domain:docs.example.com)" || q[3].Source.Line != 16 {
		t.Errorf("rules for qwen: %v", q)
	}
	if len(c.RulesFor("other")) != 3 {
		t.Errorf("rules for an agent without a table: %v", c.RulesFor("other"))
	}
	if q[0].Source.Dir != "/etc/x" {
		t.Errorf("a config rule's / is %q, want the file's directory", q[0].Source.Dir)
	}
}

func TestRulesBad(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"malformed", "[permissions]\nallow = [\n  \"Bash(npm test:*)\",\n  \"Bash(npm\",\n]\n",
			`c.toml:4: [permissions] allow: rule "Bash(npm": no closing parenthesis`},
		{"agent's", "[agents.a]\ncommand = [\"a\"]\n[agents.a.permissions]\ndeny = [\"WebFetch(x)\"]\n",
			`c.toml:4: [agents.a.permissions] deny: rule "WebFetch(x)": WebFetch takes domain:HOST`},
		{"unknown key", "[permissions]\nallow = []\ndefaultMode = \"plan\"\n", `c.toml:3: unknown key "permissions.defaultMode"`},
		{"not a list", "[permissions]\nallow = \"Bash\"\n", "c.toml:2:"},
	} {
		_, err := Parse([]byte(tc.file), "c.toml")
		var e *Error
		if err == nil || !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an *Error with %q", tc.name, err, tc.want)
		}
	}
}

func TestLoadPolicy(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ci.toml")
	if err := os.WriteFile(p, []byte("# CI\n[permissions]\nallow = [\"Bash\"]\ndeny = [\"Bash(rm:*)\", \"Edit(/secrets/**)\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rules, err := LoadPolicy(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 3 || rules[2].Source.Line != 4 || rules[2].Source.Dir != dir || rules[2].Verdict != permissions.Deny {
		t.Fatalf("rules = %v", rules)
	}
	for _, tc := range []struct{ body, want string }{
		{"[permissions]\nallow = [\"Bash(\"]\n", `ci.toml:2: [permissions] allow: rule "Bash("`},
		{"allow = [\"Bash\"]\n", `unknown key "allow"`},
		{"# nothing\n", "no [permissions] table"},
	} {
		if err := os.WriteFile(p, []byte(tc.body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadPolicy(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.body, err, tc.want)
		}
	}
	if err := os.Chmod(p, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPolicy(p); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a policy file others can write: %v", err)
	}
	if _, err := LoadPolicy(filepath.Join(dir, "missing.toml")); err == nil {
		t.Error("a missing policy file read")
	}
}

func TestProjectRules(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "config.toml")
	p := ProjectFor(conf, "/home/me/src/app")
	if filepath.Dir(p.Path) != filepath.Join(filepath.Dir(conf), "projects") || !strings.HasPrefix(filepath.Base(p.Path), "home-me-src-app-") {
		t.Errorf("project file %s", p.Path)
	}
	if ProjectFor(conf, "/home/me/src-app").Path == p.Path {
		t.Error("two directories share a file")
	}
	if rules, err := p.Rules(); err != nil || len(rules) != 0 {
		t.Fatalf("no file: %v, %v", rules, err)
	}
	for _, r := range []string{"Bash(npm test:*)", "Edit(src/a.go)", "Bash(npm test:*)"} {
		if err := p.Allow(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Allow("Bash("); err == nil {
		t.Error("a malformed rule was kept")
	}
	rules, err := p.Rules()
	if err != nil || len(rules) != 2 || rules[0].Text != "Bash(npm test:*)" || rules[1].Source.Dir != "/home/me/src/app" || rules[1].Source.Line == 0 {
		t.Fatalf("rules %v, %v", rules, err)
	}
	fi, err := os.Stat(p.Path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("project file mode %v, %v", fi.Mode(), err)
	}
	if ok, err := p.Remove("Bash(npm test:*)"); !ok || err != nil {
		t.Fatalf("Remove: %v %v", ok, err)
	}
	if ok, _ := p.Remove("Bash(npm test:*)"); ok {
		t.Error("removed twice")
	}
	if rules, _ := p.Rules(); len(rules) != 1 || rules[0].Text != "Edit(src/a.go)" {
		t.Errorf("after Remove: %v", rules)
	}
	other := Project{Path: p.Path, Dir: "/elsewhere"}
	if _, err := other.Rules(); err == nil || !strings.Contains(err.Error(), "not for") {
		t.Errorf("a file for another directory: %v", err)
	}
	if err := os.Chmod(p.Path, 0o620); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Rules(); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a project file others can write: %v", err)
	}
}
