package permissions

import (
	"strings"
	"testing"
)

// FuzzParse: any text either reads as a rule or is refused with an
// *Error naming it; a rule read decides any call without panicking.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"Bash", "Bash(npm test:*)", "Bash(git * main)", "Edit(src/**)", "Read(~/.ssh/)", "Edit(//etc/{a,b})",
		"WebFetch(domain:*.example.com)", "mcp__github__*", "Bash(", "Edit([)", "x(y)(z)", "Bash(\x00)", "Edit(\\)"} {
		f.Add(s, "npm test && rm -rf build")
	}
	f.Fuzz(func(t *testing.T, text, cmd string) {
		r, err := Parse(text, Deny, Source{File: "p.toml", Line: 1})
		if err != nil {
			if !strings.Contains(err.Error(), "p.toml:1: rule ") {
				t.Fatalf("error %q does not name the place", err)
			}
			return
		}
		if r.Text != strings.TrimSpace(text) {
			t.Fatalf("Text = %q, want %q", r.Text, text)
		}
		s := NewSet(r)
		for _, c := range []Call{{Tool: "Bash", Command: cmd}, {Tool: "Edit", Paths: []string{"/proj/" + cmd}},
			{Tool: "WebFetch", URLs: []string{cmd}}, {Tool: r.Tool()}} {
			d := s.Decide(c, env)
			if d.Verdict != None && d.Verdict != Deny {
				t.Fatalf("a deny rule gave %v", d.Verdict)
			}
		}
		_ = Lints(s, func(string) string { return "" })
	})
}

// FuzzNarrowest: a rule "always allow here" writes reads back, and
// allows the call it was made for; no command line panics the parser.
func FuzzNarrowest(f *testing.F) {
	for _, s := range []string{"npm test", "git status", "echo (hi)", "a:", "x\\y", "ls  -la", "echo $HOME", "f() { rm x; }; f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		c := Call{Tool: "Bash", Command: cmd}
		if text, ok := Narrowest(c, env); ok {
			r, err := Parse(text, Allow, Source{})
			if err != nil {
				t.Fatalf("%q: %v", text, err)
			}
			if NewSet(r).Decide(c, env).Verdict != Allow {
				t.Fatalf("%q does not allow %q", text, cmd)
			}
		}
		p := Call{Tool: "Edit", Paths: []string{"/proj/" + cmd}}
		if text, ok := Narrowest(p, env); ok {
			r, err := Parse(text, Allow, Source{})
			if err != nil || NewSet(r).Decide(p, env).Verdict != Allow {
				t.Fatalf("%q for %q: %v", text, p.Paths[0], err)
			}
		}
	})
}
