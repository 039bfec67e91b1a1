package cmd

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/config"
)

// mcpServers resolves the file's [mcp_servers] for an agent that runs with
// env (nil: elicit's own environment): variables read from it, stdio
// commands looked up on its PATH.
func mcpServers(file *config.Config, env []string) []acpconn.MCPServer {
	if env == nil {
		env = os.Environ()
	}
	getenv := func(name string) (string, bool) {
		for i := len(env) - 1; i >= 0; i-- { // the last of a name wins, as in exec
			if k, v, _ := strings.Cut(env[i], "="); k == name {
				return v, true
			}
		}
		return "", false
	}
	path, _ := getenv("PATH")
	var out []acpconn.MCPServer
	for _, s := range file.MCPServers(getenv, path) {
		out = append(out, acpconn.MCPServer{Name: s.Name, Transport: s.Transport, Command: s.Command, Args: s.Args,
			Env: mcpValues(s.Env), URL: s.URL, Headers: mcpValues(s.Headers), Problem: s.Problem})
	}
	return out
}

func mcpValues(vs []config.NameValue) []acpconn.MCPValue {
	out := make([]acpconn.MCPValue, 0, len(vs))
	for _, v := range vs {
		out = append(out, acpconn.MCPValue{Name: v.Name, Value: v.Value, Secret: v.Secret})
	}
	return out
}

// writeMCPServers says, for `elicit config check`, each MCP server the
// file gives agents: how it is reached, and what keeps it from being
// passed (never a secret's value).
func writeMCPServers(w io.Writer, file *config.Config) {
	for _, s := range mcpServers(file, nil) {
		where := s.URL
		if s.Transport == acpconn.MCPStdio {
			where = s.Command
			if where == "" {
				where = file.MCPEntries[s.Name].Command
			}
		}
		line := fmt.Sprintf("  mcp server %s (%s): %s", s.Name, s.Transport, where)
		if names := valueNames(s.Env, s.Headers); names != "" {
			line += " with " + names
		}
		if s.Problem != "" {
			line += " — left out: " + s.Problem
		} else if s.Transport != acpconn.MCPStdio {
			line += " — given to agents that take " + strings.ToUpper(s.Transport)
		}
		fmt.Fprintln(w, line)
	}
}

// valueNames lists the variables and headers set, by name only.
func valueNames(env, headers []acpconn.MCPValue) string {
	var names []string
	for _, v := range env {
		names = append(names, "$"+v.Name)
	}
	for _, v := range headers {
		names = append(names, v.Name+":")
	}
	return strings.Join(names, " ")
}
