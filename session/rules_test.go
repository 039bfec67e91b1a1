package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/audit"
	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/permissions"
	"github.com/elicit-dev/elicit/question"
)

// rules reads rules as a config file at file would hold them.
func rules(t *testing.T, file string, lists map[permissions.Verdict][]string) *permissions.Set {
	t.Helper()
	s := permissions.NewSet()
	for _, v := range []permissions.Verdict{permissions.Allow, permissions.Ask, permissions.Deny} {
		for i, text := range lists[v] {
			r, err := permissions.Parse(text, v, permissions.Source{File: file, Line: i + 1})
			if err != nil {
				t.Fatal(err)
			}
			s.Add(r)
		}
	}
	return s
}

// claudePerm is a permission as claude-agent-acp asks it: its options
// (allow_once, allow_always, reject_once), the tool's name and raw input.
func claudePerm(id uint64, name, title, kind string, input map[string]any, files ...string) question.Asked {
	return question.Asked{Q: &question.Question{ID: id, Kind: question.Permission, From: question.From{ToolCall: "t", Tool: title},
		Tool: &question.Tool{ID: "t", Title: title, Kind: kind, Name: name, Input: input, Files: files}, Options: []question.Option{
			{ID: "allow-once", Name: "Yes", Kind: "allow_once"}, {ID: "allow-always", Name: "Yes, always", Kind: "allow_always"},
			{ID: "reject", Name: "No", Kind: "reject_once"}}}}
}

func bash(id uint64, cmd string) question.Asked {
	return claudePerm(id, "Bash", cmd, "execute", map[string]any{"command": cmd})
}

func edit(id uint64, path string) question.Asked {
	return claudePerm(id, "Edit", "Edit "+path, "edit", map[string]any{"file_path": path}, path)
}

const dir = "/proj"

func TestRulesAnswer(t *testing.T) {
	gitConfig := edit(9, dir+"/.git/config")
	gitConfig.Q.Tool.Risk, gitConfig.Q.Tool.RiskPath = "git runs hooks", ".git/config"
	for _, tc := range []struct {
		name  string
		pol   Policy
		lists map[permissions.Verdict][]string
		ev    question.Asked
		sent  string // "" : a person is asked
		note  string
	}{
		{"-p, no rule: refused", Policy{}, nil, bash(1, "npm test"), "perm reject", "permission for npm test: No (non-interactive)"},
		{"allowed by rule", Policy{}, map[permissions.Verdict][]string{permissions.Allow: {"Bash(npm test:*)"}}, bash(1, "npm test"), "perm allow-once",
			"permission for npm test: Yes (allowed by Bash(npm test:*) in config.toml)"},
		{"allowed by rule, a person there", Policy{Person: true}, map[permissions.Verdict][]string{permissions.Allow: {"Bash(npm test:*)"}}, bash(1, "npm test"), "perm allow-once", "allowed by"},
		{"no rule, a person there", Policy{Person: true}, map[permissions.Verdict][]string{permissions.Allow: {"Bash(git status)"}}, bash(1, "npm test"), "", ""},
		{"deny beats --approve", Policy{Approve: true}, map[permissions.Verdict][]string{permissions.Allow: {"Bash"}, permissions.Deny: {"Bash(rm:*)"}}, bash(1, "rm -rf build"), "perm reject",
			"permission for rm -rf build: No (denied by Bash(rm:*) in config.toml)"},
		{"deny without asking the person", Policy{Person: true}, map[permissions.Verdict][]string{permissions.Deny: {"Bash(rm:*)"}}, bash(1, "rm -rf build"), "perm reject", "denied by"},
		{"ask asks the person", Policy{Person: true}, map[permissions.Verdict][]string{permissions.Allow: {"Bash"}, permissions.Ask: {"Bash(git push:*)"}}, bash(1, "git push"), "", ""},
		{"ask without a person refuses", Policy{Approve: true}, map[permissions.Verdict][]string{permissions.Ask: {"Bash(git push:*)"}}, bash(1, "git push"), "perm reject",
			"asked by Bash(git push:*) in config.toml, and there is no one to ask"},
		{"edit allowed", Policy{}, map[permissions.Verdict][]string{permissions.Allow: {"Edit(src/**)"}}, edit(1, dir+"/src/a.go"), "perm allow-once", "allowed by Edit(src/**)"},
		{"code risk beats Edit(**)", Policy{}, map[permissions.Verdict][]string{permissions.Allow: {"Edit(**)"}}, gitConfig, "perm reject", ".git/config runs code later (git runs hooks): only a person, or --allow-write .git/config, allows it"},
		{"code risk beats --approve", Policy{Approve: true}, nil, gitConfig, "perm reject", "runs code later"},
		{"code risk asks a person despite Edit(**)", Policy{Person: true}, map[permissions.Verdict][]string{permissions.Allow: {"Edit(**)"}}, gitConfig, "", ""},
		{"serve -p: by rule", Policy{Person: true, PermissionsByRule: true}, map[permissions.Verdict][]string{permissions.Allow: {"Bash(npm test:*)"}}, bash(1, "npm test"), "perm allow-once", "allowed by"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &wire{}
			c := New(w, tc.pol, nil)
			c.SetMemory(Memory{Rules: rules(t, "/home/u/.config/elicit/config.toml", tc.lists), Env: permissions.Env{Cwd: dir, Home: "/home/u"}})
			ch := c.Apply(tc.ev)
			if tc.sent == "" {
				if len(ch.Asked) != 1 || len(w.sent) != 0 {
					t.Fatalf("not asked: sent %v", w.sent)
				}
				return
			}
			if len(w.sent) != 1 || w.sent[0] != tc.sent {
				t.Fatalf("sent %v, want %q", w.sent, tc.sent)
			}
			if len(ch.Notes) != 1 || !strings.Contains(ch.Notes[0].Text, tc.note) {
				t.Errorf("notes %+v, want %q", ch.Notes, tc.note)
			}
		})
	}
}

// TestRuleNeverAlways: a rule, --approve and -p's refusal pick the
// agent's allow_once or reject_once option, never an "always" one, even
// when that comes first (gemini's order); an agent that offers only
// "always" options gets cancel.
func TestRuleNeverAlways(t *testing.T) {
	gemini := []question.Option{{ID: "proceed_always", Kind: "allow_always"}, {ID: "proceed_once", Kind: "allow_once"}, {ID: "cancel", Kind: "reject_once"}}
	always := []question.Option{{ID: "always", Kind: "allow_always"}, {ID: "never", Kind: "reject_always"}}
	for _, tc := range []struct {
		pol   Policy
		opts  []question.Option
		rules []string
		want  string
	}{
		{Policy{Approve: true}, gemini, nil, "perm proceed_once"},
		{Policy{}, gemini, []string{"Bash"}, "perm proceed_once"},
		{Policy{Approve: true}, always, nil, "perm "},
		{Policy{}, always, nil, "perm "},
		{Policy{}, always, []string{"Bash"}, "perm "},
	} {
		w := &wire{}
		c := New(w, tc.pol, nil)
		c.SetMemory(Memory{Rules: rules(t, "c.toml", map[permissions.Verdict][]string{permissions.Allow: tc.rules}), Env: permissions.Env{Cwd: dir}})
		q := bash(1, "ls")
		q.Q.Options = tc.opts
		ch := c.Apply(q)
		if len(w.sent) != 1 || w.sent[0] != tc.want {
			t.Errorf("%+v %v: sent %v, want %q (%+v)", tc.pol, tc.rules, w.sent, tc.want, ch.Notes)
		}
	}
}

func TestRuleAudited(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	c := New(&wire{}, Policy{}, nil)
	c.SetMemory(Memory{Audit: log, Rules: rules(t, "/etc/p.toml", map[permissions.Verdict][]string{permissions.Allow: {"Bash(npm test:*)"}}), Env: permissions.Env{Cwd: dir}})
	c.Apply(bash(1, "npm test"))
	c.Close()
	log.Close()
	entries := readAudit(t, path)
	if len(entries) != 1 || entries[0]["answered_by"] != "rule" || entries[0]["rule"] != "Bash(npm test:*) in /etc/p.toml:1" || entries[0]["outcome"] != "allow-once" {
		t.Errorf("audit %v", entries)
	}
}

// TestAllowHere: "always allow here" answers allow_once, keeps the
// narrowest rule in the project's file, and the next call like it is
// allowed by that rule, in this session and in the next.
func TestAllowHere(t *testing.T) {
	proj := config.ProjectFor(filepath.Join(t.TempDir(), "config.toml"), dir)
	mem := Memory{Rules: permissions.NewSet(), Env: permissions.Env{Cwd: dir}, Project: &proj}
	w := &wire{}
	c := New(w, Policy{Person: true}, nil)
	c.SetMemory(mem)
	ch := c.Apply(bash(1, "npm test"))
	q := ch.Asked[0]
	if rule, ok := c.AllowHere(q); !ok || rule != "Bash(npm test:*)" {
		t.Fatalf("AllowHere = %q, %v", rule, ok)
	}
	ch = c.Settle(context.Background(), c.AnswerAllowHere(q))
	if len(w.sent) != 1 || w.sent[0] != "perm allow-once" {
		t.Fatalf("sent %v, want allow_once (never the agent's always)", w.sent)
	}
	if !strings.Contains(notes(ch), "always allowed here: Bash(npm test:*), kept in "+proj.Path) {
		t.Errorf("notes %s", notes(ch))
	}
	ch = c.Apply(bash(2, "npm test --watch"))
	if len(ch.Asked) != 0 || w.sent[1] != "perm allow-once" || !strings.Contains(notes(ch), "allowed by Bash(npm test:*) in "+filepath.Base(proj.Path)) {
		t.Errorf("the next call: asked %d, sent %v, notes %s", len(ch.Asked), w.sent, notes(ch))
	}
	if _, ok := c.AllowHere(c.Apply(bash(3, "npm test && rm -rf /")).Asked[0]); ok {
		t.Error("offered a rule for a compound command")
	}
	// The next session in this directory reads the file.
	kept, err := proj.Rules()
	if err != nil || len(kept) != 1 {
		t.Fatalf("kept %v, %v", kept, err)
	}
	c2 := New(&wire{}, Policy{}, nil)
	c2.SetMemory(Memory{Rules: permissions.NewSet(kept...), Env: permissions.Env{Cwd: dir}, Project: &proj})
	if ch := c2.Apply(bash(1, "npm test")); !strings.Contains(notes(ch), "Yes (allowed by Bash(npm test:*)") {
		t.Errorf("next session: %s", notes(ch))
	}
	// /permissions removes it.
	r := c.Rules()[0]
	if n := c.ForgetRule(context.Background(), r); !strings.Contains(n[0].Text, "removed Bash(npm test:*)") {
		t.Errorf("forget: %+v", n)
	}
	if len(c.Rules()) != 0 {
		t.Errorf("still in force: %v", c.Rules())
	}
	if kept, _ := proj.Rules(); len(kept) != 0 {
		t.Errorf("still in the file: %v", kept)
	}
	other, _ := permissions.Parse("Bash", permissions.Allow, permissions.Source{File: "/etc/c.toml", Line: 2})
	mem.Rules.Add(other)
	if n := c.ForgetRule(context.Background(), other); !strings.Contains(n[0].Text, "written in /etc/c.toml:2") || len(c.Rules()) != 1 {
		t.Errorf("a config rule: %+v", n)
	}
}

func notes(ch Changes) string {
	var b strings.Builder
	for _, n := range ch.Notes {
		b.WriteString(n.Text + "\n")
	}
	return b.String()
}

// readAudit reads an audit file: one JSON object a line.
func readAudit(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		out = append(out, e)
	}
	return out
}

// AnswerAllowHere on a call no rule can be kept for still sends the
// person's allow, and says nothing was kept: the question never hangs.
func TestAllowHereNothingToKeep(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Person: true}, nil)
	c.SetMemory(Memory{Rules: permissions.NewSet(), Env: permissions.Env{Cwd: dir}})
	q := c.Apply(bash(1, "npm test && rm -rf build")).Asked[0]
	ch := c.AnswerAllowHere(q)
	if len(w.sent) != 1 || w.sent[0] != "perm allow-once" || len(ch.Keep) != 0 || !strings.Contains(notes(ch), "no rule was kept") || len(c.Questions()) != 0 {
		t.Errorf("sent %v, keep %v, notes %s", w.sent, ch.Keep, notes(ch))
	}
}
