package config

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
)

// Source says where an agent's entry comes from.
type Source string

// The sources of an agent entry.
const (
	FromConfig  Source = "config"
	FromBuiltin Source = "built-in"
)

// Agent is a named agent resolved for running.
type Agent struct {
	// Name is what the user types: `elicit NAME`.
	Name string
	// Command is the argv; Command[0] as written.
	Command []string
	// Env holds the variables to add to elicit's environment.
	Env map[string]string
	// Cwd is the session's working directory ("~/" expanded), empty for
	// elicit's own.
	Cwd string
	// Source says whether the file or the built-in list named it.
	Source Source
	// Path is Command[0] found on PATH; empty when it is not installed.
	Path string
	// URL, TokenEnv, CA and Transport reach a remote agent instead of
	// Command (see AgentEntry).
	URL, TokenEnv, CA, Transport string
	// APIKeyEnv names the variable holding its API key (api_key_env).
	APIKeyEnv string
}

// Installed reports whether the agent's command was found; a remote
// agent counts as installed.
func (a Agent) Installed() bool { return a.Path != "" || a.URL != "" }

// Environ returns base (usually os.Environ()) with the agent's variables
// set, replacing any of the same name.
func (a Agent) Environ(base []string) []string {
	out := make([]string, 0, len(base)+len(a.Env))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, over := a.Env[name]; !over {
			out = append(out, kv)
		}
	}
	keys := make([]string, 0, len(a.Env))
	for k := range a.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+a.Env[k])
	}
	return out
}

// Builtin lists the agents elicit knows without a config file, by name.
// They are offered only when their command is on PATH.
var Builtin = map[string][]string{
	"claude":      {"claude-agent-acp"},
	"claude-code": {"claude-code-acp"},
	"gemini":      {"gemini", "--acp"},
	"codex":       {"codex-acp"},
	"opencode":    {"opencode", "acp"},
	"qwen":        {"qwen", "--acp"},
	"copilot":     {"copilot", "--acp"},
	"auggie":      {"auggie", "--acp"},
}

// Reserved are the sub-command names an agent may not take: `elicit NAME`
// runs the subcommand. cmd's TestReservedNames checks that every
// command of the tree is here; mcp, serve and attach are kept for the
// commands the design names.
var Reserved = []string{
	"agents", "attach", "completion", "config", "demo", "form", "help", "history", "inbox", "man", "mcp",
	"serve", "sessions", "url", "version",
	"__complete", "__completeNoDesc", "__demo-agent",
}

// Agent resolves a name: the file's [agents.NAME] first, then the built-in
// entry. A built-in whose command is not on PATH is an error that says
// what to install; a configured one is returned even when it is missing
// (Installed is false), so that running it fails with the file's command.
func (c *Config) Agent(name string) (Agent, error) {
	if e, ok := c.AgentEntries[name]; ok {
		return resolveEntry(name, e), nil
	}
	if argv, ok := Builtin[name]; ok {
		a := resolve(name, argv, nil, "", FromBuiltin)
		if !a.Installed() {
			return a, fmt.Errorf("agent %q: %s is not on PATH (install it, or add [agents.%s] to %s)", name, argv[0], name, c.where())
		}
		return a, nil
	}
	return Agent{}, fmt.Errorf("no agent named %q (known: %s; add [agents.%s] to %s)", name, strings.Join(c.names(), ", "), name, c.where())
}

// Agents lists every named agent, configured and built-in, sorted by name.
// A configured entry hides the built-in of the same name.
func (c *Config) Agents() []Agent {
	out := make([]Agent, 0, len(c.AgentEntries)+len(Builtin))
	for _, name := range c.names() {
		if e, ok := c.AgentEntries[name]; ok {
			out = append(out, resolveEntry(name, e))
		} else {
			out = append(out, resolve(name, Builtin[name], nil, "", FromBuiltin))
		}
	}
	return out
}

func (c *Config) names() []string {
	var names []string
	for n := range c.AgentEntries {
		names = append(names, n)
	}
	for n := range Builtin {
		if _, ok := c.AgentEntries[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

func (c *Config) where() string {
	if c.Path != "" {
		return c.Path
	}
	return DefaultPath()
}

// resolveEntry resolves a configured agent, local or remote.
func resolveEntry(name string, e AgentEntry) Agent {
	a := resolve(name, e.Command, e.Env, e.Cwd, FromConfig)
	a.URL, a.TokenEnv, a.CA, a.Transport = e.URL, e.TokenEnv, expandHome(e.CA), e.Transport
	a.APIKeyEnv = e.APIKeyEnv
	return a
}

func resolve(name string, argv []string, env map[string]string, cwd string, src Source) Agent {
	a := Agent{Name: name, Command: slices.Clone(argv), Env: env, Cwd: expandHome(cwd), Source: src}
	if len(argv) > 0 {
		if p, err := exec.LookPath(argv[0]); err == nil {
			a.Path = p
		}
	}
	return a
}

// expandHome replaces a leading "~/" with the user's home directory.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// WriteAgents prints one agent a line under a header: name, command
// (quoted so it can be copied), source, installed; `elicit agents` is this.
func WriteAgents(w io.Writer, agents []Agent) {
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
