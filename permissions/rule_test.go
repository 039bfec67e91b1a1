package permissions

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		text, tool, spec, err string
	}{
		{text: "Bash", tool: "Bash"},
		{text: "  Bash(*) ", tool: "Bash"},
		{text: "Bash(npm test:*)", tool: "Bash", spec: "npm test:*"},
		{text: "Bash(echo (hi))", tool: "Bash", spec: "echo (hi)"},
		{text: "Edit(src/**)", tool: "Edit", spec: "src/**"},
		{text: "Write(//etc/hosts)", tool: "Write", spec: "//etc/hosts"},
		{text: "Read(~/.zshrc)", tool: "Read", spec: "~/.zshrc"},
		{text: "WebFetch(domain:docs.example.com)", tool: "WebFetch", spec: "domain:docs.example.com"},
		{text: "WebFetch(domain:*.example.com)", tool: "WebFetch", spec: "domain:*.example.com"},
		{text: "mcp__github", tool: "mcp__github"},
		{text: "mcp__github__create_issue", tool: "mcp__github__create_issue"},
		{text: "mcp__github__*", tool: "mcp__github__*"},
		{text: "Bash__*", err: "is not a tool name"},
		{text: "Task(explore)", tool: "Task", spec: "explore"},
		{text: "", err: "empty"},
		{text: "Bash(npm", err: "no closing parenthesis"},
		{text: "Bash(npm) x", err: "no closing parenthesis"},
		{text: "Bash()", err: "empty parentheses"},
		{text: "Ba sh", err: "is not a tool name"},
		{text: "(x)", err: "is not a tool name"},
		{text: "mcp__", err: "names a server"},
		{text: "mcp____x", err: "names a server"},
		{text: "WebFetch(docs.example.com)", err: "domain:HOST"},
		{text: "WebFetch(domain:)", err: "not a host name"},
		{text: "WebFetch(domain:https://x.com)", err: "not a host name"},
		{text: "Edit(src/[)", err: "not a valid path pattern"},
	} {
		r, err := Parse(tc.text, Allow, Source{File: "/c/config.toml", Line: 4})
		if tc.err != "" {
			var e *Error
			if err == nil || !errors.As(err, &e) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%q) = %v, want an *Error with %q", tc.text, err, tc.err)
			} else if !strings.HasPrefix(err.Error(), "/c/config.toml:4: rule ") {
				t.Errorf("Parse(%q): %q does not start with the place and the rule", tc.text, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.text, err)
			continue
		}
		if r.Tool() != tc.tool || r.Specifier() != tc.spec {
			t.Errorf("Parse(%q) = %q(%q), want %q(%q)", tc.text, r.Tool(), r.Specifier(), tc.tool, tc.spec)
		}
	}
}

func TestRuleNames(t *testing.T) {
	r, err := Parse("Bash(npm test:*)", Allow, Source{File: "/home/u/.config/elicit/config.toml", Line: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Short(), "Bash(npm test:*) in config.toml"; got != want {
		t.Errorf("Short = %q, want %q", got, want)
	}
	if got, want := r.String(), "Bash(npm test:*) in /home/u/.config/elicit/config.toml:3"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}
