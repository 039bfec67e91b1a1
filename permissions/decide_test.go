package permissions

import (
	"testing"
)

// set reads rules as a config file's lists would hold them.
func set(t testing.TB, allow, ask, deny []string) *Set {
	t.Helper()
	s := NewSet()
	for v, list := range map[Verdict][]string{Allow: allow, Ask: ask, Deny: deny} {
		for i, text := range list {
			r, err := Parse(text, v, Source{File: "/proj/.elicit/policy.toml", Line: i + 1})
			if err != nil {
				t.Fatal(err)
			}
			s.Add(r)
		}
	}
	return s
}

var env = Env{Cwd: "/proj", Home: "/home/u"}

func TestDecide(t *testing.T) {
	bash := func(cmd string) Call { return Call{Tool: "Bash", Command: cmd} }
	edit := func(paths ...string) Call { return Call{Tool: "Edit", Paths: paths} }
	fetch := func(urls ...string) Call { return Call{Tool: "WebFetch", URLs: urls} }
	for _, tc := range []struct {
		name             string
		allow, ask, deny []string
		call             Call
		want             Verdict
		rule             string
	}{
		{name: "no rules", call: bash("npm test"), want: None},
		{name: "prefix", allow: []string{"Bash(npm test:*)"}, call: bash("npm test"), want: Allow, rule: "Bash(npm test:*)"},
		{name: "prefix with words", allow: []string{"Bash(npm test:*)"}, call: bash("npm test --watch"), want: Allow},
		{name: "prefix is a word", allow: []string{"Bash(npm test:*)"}, call: bash("npm tests"), want: None},
		{name: "space star", allow: []string{"Bash(ls *)"}, call: bash("ls"), want: Allow},
		{name: "space star boundary", allow: []string{"Bash(ls *)"}, call: bash("lsof"), want: None},
		{name: "star glued", allow: []string{"Bash(ls*)"}, call: bash("lsof -i"), want: Allow},
		{name: "middle star", allow: []string{"Bash(git * main)"}, call: bash("git checkout main"), want: Allow},
		{name: "exact", allow: []string{"Bash(git status)"}, call: bash("git status"), want: Allow},
		{name: "exact only", allow: []string{"Bash(git status)"}, call: bash("git status --short"), want: None},
		{name: "compound needs both", allow: []string{"Bash(npm test:*)"}, call: bash("npm test && rm -rf build"), want: None},
		{name: "compound both allowed", allow: []string{"Bash(npm test:*)", "Bash(git status)"}, call: bash("npm test; git status"), want: Allow},
		{name: "substitution", allow: []string{"Bash(echo *)"}, call: bash("echo $(rm -rf /)"), want: None},
		{name: "redirect into a file", allow: []string{"Bash(echo *)"}, call: bash("echo x > ~/.bashrc"), want: None},
		{name: "redirect to null", allow: []string{"Bash(npm test:*)"}, call: bash("npm test > /dev/null 2>&1"), want: Allow},
		{name: "wrapper", allow: []string{"Bash(npm test:*)"}, call: bash("timeout 60 npm test"), want: Allow},
		{name: "unparseable", allow: []string{"Bash(echo *)"}, call: bash("echo 'unclosed"), want: None},
		{name: "bare Bash allows unparseable", allow: []string{"Bash"}, call: bash("echo 'unclosed"), want: Allow},
		{name: "deny wins", allow: []string{"Bash"}, deny: []string{"Bash(rm:*)"}, call: bash("rm -rf build"), want: Deny, rule: "Bash(rm:*)"},
		{name: "deny leaves others", allow: []string{"Bash"}, deny: []string{"Bash(rm:*)"}, call: bash("git status"), want: Allow, rule: "Bash"},
		{name: "deny in compound", allow: []string{"Bash"}, deny: []string{"Bash(rm:*)"}, call: bash("npm test && rm -rf build"), want: Deny},
		{name: "deny through wrapper", deny: []string{"Bash(rm:*)"}, call: bash("nice -n 5 rm -rf build"), want: Deny},
		{name: "deny past assignments", deny: []string{"Bash(rm:*)"}, call: bash("X=1 rm -rf build"), want: Deny},
		{name: "deny past assignments and wrapper", deny: []string{"Bash(rm:*)"}, call: bash("X=1 timeout 5 rm -rf build"), want: Deny},
		{name: "assignments keep allow off", allow: []string{"Bash(npm test:*)"}, call: bash("NODE_OPTIONS=--require=x npm test"), want: None},
		{name: "assignments kept in the rule", allow: []string{"Bash(CI=1 npm test:*)"}, call: bash("CI=1 npm test"), want: Allow},
		{name: "ask over allow", allow: []string{"Bash"}, ask: []string{"Bash(git push:*)"}, call: bash("git push origin main"), want: Ask},
		{name: "edit under", allow: []string{"Edit(src/**)"}, call: edit("/proj/src/a.go"), want: Allow},
		{name: "edit outside", allow: []string{"Edit(src/**)"}, call: edit("/proj/docs/a.md"), want: None},
		{name: "write rule covers edits", allow: []string{"Write(src/**)"}, call: edit("/proj/src/a.go"), want: Allow},
		{name: "every file", allow: []string{"Edit(src/**)"}, call: edit("/proj/src/a.go", "/proj/b.go"), want: None},
		{name: "any depth without slash", allow: []string{"Edit(*.go)"}, call: edit("/proj/src/deep/a.go"), want: Allow},
		{name: "dot slash anchors", allow: []string{"Edit(./a.go)"}, call: edit("/proj/src/a.go"), want: None},
		{name: "directory names its files", allow: []string{"Edit(src)"}, call: edit("/proj/src/a/b.go"), want: Allow},
		{name: "trailing slash", deny: []string{"Edit(secrets/)"}, call: edit("/proj/secrets/k"), want: Deny},
		{name: "star star is the session", allow: []string{"Edit(**)"}, call: edit("/etc/passwd"), want: None},
		{name: "absolute", deny: []string{"Edit(//etc/**)"}, call: edit("/etc/passwd"), want: Deny},
		{name: "home", deny: []string{"Read(~/.ssh/**)"}, call: Call{Tool: "Read", Paths: []string{"/home/u/.ssh/id"}}, want: Deny},
		{name: "settings dir", allow: []string{"Edit(/notes.md)"}, call: edit("/proj/.elicit/notes.md"), want: Allow},
		{name: "read rule not edit", allow: []string{"Read(src/**)"}, call: edit("/proj/src/a.go"), want: None},
		{name: "domain", allow: []string{"WebFetch(domain:docs.example.com)"}, call: fetch("https://docs.example.com/guide"), want: Allow},
		{name: "other domain", allow: []string{"WebFetch(domain:docs.example.com)"}, call: fetch("https://evil.example.com/"), want: None},
		{name: "lookalike suffix", allow: []string{"WebFetch(domain:example.com)"}, call: fetch("https://evilexample.com/"), want: None},
		{name: "subdomains", allow: []string{"WebFetch(domain:*.example.com)"}, call: fetch("https://docs.example.com/"), want: Allow},
		{name: "every URL", allow: []string{"WebFetch(domain:docs.example.com)"}, call: fetch("https://docs.example.com/", "https://x.org/"), want: None},
		{name: "userinfo", allow: []string{"WebFetch(domain:docs.example.com)"}, call: fetch("https://docs.example.com@evil.org/"), want: None},
		{name: "mcp server", allow: []string{"mcp__github"}, call: Call{Tool: "mcp__github__create_issue"}, want: Allow},
		{name: "mcp server star", allow: []string{"mcp__github__*"}, call: Call{Tool: "mcp__github__create_issue"}, want: Allow},
		{name: "mcp other server", allow: []string{"mcp__git"}, call: Call{Tool: "mcp__github__create_issue"}, want: None},
		{name: "mcp tool", deny: []string{"mcp__github__delete_repo"}, call: Call{Tool: "mcp__github__delete_repo"}, want: Deny},
		{name: "agent's name", allow: []string{"run_shell_command"}, call: Call{Tool: "Bash", Name: "run_shell_command", Command: "ls"}, want: Allow},
		{name: "unread specifier", allow: []string{"Task(explore)"}, call: Call{Tool: "Task"}, want: None},
		{name: "no tool", allow: []string{"Bash"}, call: Call{}, want: None},
	} {
		s := set(t, tc.allow, tc.ask, tc.deny)
		d := s.Decide(tc.call, env)
		if d.Verdict != tc.want {
			t.Errorf("%s: Decide = %v, want %v", tc.name, d.Verdict, tc.want)
			continue
		}
		if tc.rule != "" && (d.Rule == nil || d.Rule.Text != tc.rule) {
			t.Errorf("%s: decided by %v, want %s", tc.name, d.Rule, tc.rule)
		}
		if d.Verdict != None && d.Rule == nil {
			t.Errorf("%s: a verdict without its rule", tc.name)
		}
	}
}

// TestIssueScenario is the issue's list: the same scripted calls under
// three rule sets.
func TestIssueScenario(t *testing.T) {
	calls := []Call{
		{Tool: "Bash", Command: "npm test"},
		{Tool: "Bash", Command: "git status"},
		{Tool: "Bash", Command: "rm -rf build"},
		{Tool: "Edit", Paths: []string{"/proj/src/a.go"}},
		{Tool: "Edit", Paths: []string{"/proj/.git/config"}},
		{Tool: "WebFetch", URLs: []string{"https://docs.example.com/guide"}},
		{Tool: "WebFetch", URLs: []string{"https://other.example.org/"}},
		{Tool: "mcp__everything__echo", Name: "mcp__everything__echo"},
	}
	for _, tc := range []struct {
		allow, deny []string
		want        string // one letter a call: a(llow), d(eny), -(none)
	}{
		{allow: []string{"Bash(npm test:*)", "Edit(src/**)"}, want: "a--a----"},
		{allow: []string{"Bash"}, deny: []string{"Bash(rm:*)"}, want: "aad-----"},
		{allow: []string{"Edit(**)", "WebFetch(domain:docs.example.com)", "mcp__everything"}, want: "---aaa-a"},
	} {
		s := set(t, tc.allow, nil, tc.deny)
		got := ""
		for _, c := range calls {
			got += map[Verdict]string{None: "-", Allow: "a", Deny: "d", Ask: "?"}[s.Decide(c, env).Verdict]
		}
		if got != tc.want {
			t.Errorf("allow %v deny %v: %s, want %s", tc.allow, tc.deny, got, tc.want)
		}
	}
}
