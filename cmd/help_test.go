package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// TestHelpGolden holds the --help of the root and of every subcommand to
// testdata/help (go test -update rewrites them; review the diff).
func TestHelpGolden(t *testing.T) {
	root := newRootCommand(newApp(nil, nil, nil))
	root.InitDefaultHelpCmd()
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if c.Hidden {
			return
		}
		paths = append(paths, path)
		for _, s := range c.Commands() {
			walk(s, append(path[:len(path):len(path)], s.Name()))
		}
	}
	walk(root, nil)
	if len(paths) < 15 {
		t.Fatalf("only %d commands: %q", len(paths), paths)
	}
	for _, p := range paths {
		name := strings.Join(append([]string{"elicit"}, p...), "_")
		t.Run(name, func(t *testing.T) {
			r := runTree(t, "", append(p, "--help")...)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("%v", r)
			}
			testkit.Golden(t, filepath.Join("testdata", "help", name+".golden"), []byte(r.stdout))
		})
	}
}

// TestHelpGroups: the grouped sections appear in order, each flag once,
// and a flag's placeholder comes from its usage.
func TestHelpGroups(t *testing.T) {
	r := runTree(t, "", "--help")
	out := r.stdout
	last := -1
	for _, title := range []string{"USAGE", "EXAMPLES", "COMMANDS", "SESSION", "ANSWERS WITHOUT A PERSON", "FILES AND LOGS", "PROTOCOL", "FLAGS"} {
		i := strings.Index(out, "\n  "+title+"\n")
		if i < 0 || i < last {
			t.Fatalf("section %s missing or out of order:\n%s", title, out)
		}
		last = i
	}
	for _, flag := range []string{"-p --prompt TEXT", "--resume ID", "-c --continue", "--answers FILE", "--start-timeout DURATION", "-v --version", "-h --help"} {
		if strings.Count(out, flag) != 1 {
			t.Errorf("%q appears %d times:\n%s", flag, strings.Count(out, flag), out)
		}
	}
	if !strings.Contains(out, "Exit status: 0 ok, 1 failure, 2 usage error, 124 timeout") {
		t.Errorf("no exit statuses in the root help")
	}
	if strings.Contains(out, "`") {
		t.Errorf("a raw backquote in help:\n%s", out)
	}
	// help FORM draws the same as form --help.
	if a, b := runTree(t, "", "help", "form"), runTree(t, "", "form", "--help"); a.stdout != b.stdout {
		t.Errorf("help form differs from form --help:\n%s\n---\n%s", a.stdout, b.stdout)
	}
}

// TestHelpHasNoTrailingSpaces: piped help, of every command, ends no
// line with a space (fang pads its blocks to their width).
func TestHelpHasNoTrailingSpaces(t *testing.T) {
	for _, path := range visibleCommands(t) {
		r := runTree(t, "", append(path, "--help")...)
		for i, line := range strings.Split(r.stdout, "\n") {
			if strings.TrimRight(line, " \t") != line {
				t.Errorf("elicit %s --help, line %d ends with a space: %q", strings.Join(path, " "), i+1, line)
				break
			}
		}
	}
	if r := runBinary(t, nil, "", "--help"); r.code != 0 || strings.Contains(r.stdout, " \n") {
		t.Errorf("elicit --help | ...: trailing spaces or %v", r)
	}
}

// TestMCPHelpSpeaksOfServers: MCP has a server and no sessions, so the
// help of elicit mcp and its commands says "the server", never "the
// agent" or session/new.
func TestMCPHelpSpeaksOfServers(t *testing.T) {
	for _, args := range [][]string{{"help", "mcp"}, {"mcp", "call", "--help"}, {"mcp", "tools", "--help"}} {
		r := runTree(t, "", args...)
		for _, bad := range []string{"the agent", "session/new", "session's", "SESSION"} {
			if strings.Contains(r.stdout, bad) {
				t.Errorf("%q says %q:\n%s", args, bad, r.stdout)
			}
		}
		for _, want := range []string{"elicitation to the server", "The DURATION the server has", "The server's working DIR", "SERVER"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%q lacks %q", args, want)
			}
		}
	}
}
