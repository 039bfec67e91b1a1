package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakePath makes a directory of executables with these names and makes it
// the whole PATH.
func fakePath(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	return dir
}

func TestAgent(t *testing.T) {
	dir := fakePath(t, "gemini", "my-agent")
	t.Setenv("HOME", "/home/u")
	c, err := Parse([]byte("[agents.mine]\ncommand = [\"my-agent\", \"--acp\"]\ncwd = \"~/src\"\nenv = { A = \"1\" }\n[agents.codex]\ncommand = [\"not-installed\"]\n"), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		src     Source
		path    string
		argv    string
		wantErr string
	}{
		{"mine", FromConfig, filepath.Join(dir, "my-agent"), "my-agent --acp", ""},
		{"gemini", FromBuiltin, filepath.Join(dir, "gemini"), "gemini --acp", ""},
		{"codex", FromConfig, "", "not-installed", ""},
		{"claude", FromBuiltin, "", "claude-agent-acp", "claude-agent-acp is not on PATH"},
		{"nobody", "", "", "", `no agent named "nobody"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := c.Agent(tt.name)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "mine" && a.Cwd != "/home/u/src" {
				t.Errorf("Cwd = %q", a.Cwd)
			}
			if a.Source != tt.src || a.Path != tt.path || strings.Join(a.Command, " ") != tt.argv {
				t.Errorf("got %+v", a)
			}
		})
	}
}

func TestAgentsAndEnviron(t *testing.T) {
	fakePath(t, "opencode")
	c, err := Parse([]byte("[agents.claude]\ncommand = [\"x y\"]\nenv = { B = \"2\" }\n"), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	all := c.Agents()
	if len(all) != len(Builtin) {
		t.Fatalf("%d agents, want %d (claude is configured, hiding the built-in)", len(all), len(Builtin))
	}
	var b bytes.Buffer
	WriteAgents(&b, all)
	out := b.String()
	for _, want := range []string{"claude       'x y'", "config", "opencode     opencode acp", "yes", "auggie"} {
		if !strings.Contains(out, want) {
			t.Errorf("listing lacks %q:\n%s", want, out)
		}
	}
	env := all[1].Environ([]string{"A=1", "B=1"}) // claude
	if strings.Join(env, " ") != "A=1 B=2" {
		t.Errorf("Environ = %v", env)
	}
}
