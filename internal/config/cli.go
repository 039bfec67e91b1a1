package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"text/tabwriter"
)

// RunCLI runs `elicit config path`, `elicit config check` and `elicit
// agents`; args start with the sub-command ("config" or "agents"), path is
// the configuration file in use (DefaultPath unless a flag chose another).
// It returns the exit status: 0 done, 1 a bad file, 2 bad usage.
func RunCLI(args []string, stdout, stderr io.Writer, path string) int {
	usage := func() int {
		fmt.Fprintln(stderr, "usage: elicit config path | elicit config check | elicit agents")
		return 2
	}
	if len(args) == 0 {
		return usage()
	}
	switch {
	case args[0] == "config" && len(args) == 2 && args[1] == "path":
		fmt.Fprintln(stdout, path)
		return 0
	case args[0] == "config" && len(args) == 2 && args[1] == "check":
		c, err := Load(path)
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stdout, "%s: no file (the defaults apply)\n", path)
			return 0
		}
		if err != nil {
			fmt.Fprintln(stderr, "elicit:", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s: ok (%d agents, %d hooks)\n", path, len(c.AgentEntries), len(c.Hooks))
		return 0
	case args[0] == "agents" && len(args) == 1:
		c, err := Load(path)
		if errors.Is(err, fs.ErrNotExist) {
			c, err = &Config{Path: path}, nil
		}
		if err != nil {
			fmt.Fprintln(stderr, "elicit:", err)
			return 1
		}
		writeAgents(stdout, c.Agents())
		return 0
	}
	return usage()
}

// writeAgents prints one agent a line: name, command, source, installed.
func writeAgents(w io.Writer, agents []Agent) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tCOMMAND\tSOURCE\tINSTALLED")
	for _, a := range agents {
		installed := "no"
		if a.Installed() {
			installed = "yes"
		}
		cmd := quoteArgv(a.Command)
		if a.URL != "" {
			cmd = a.URL
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", a.Name, cmd, a.Source, installed)
	}
	tw.Flush()
}

// quoteArgv writes argv as a shell would need it, quoting words with
// spaces or quotes so the line can be copied.
func quoteArgv(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t'\"\\$") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
