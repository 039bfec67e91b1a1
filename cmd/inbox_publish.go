package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/ui/serve"
)

// inboxMeta is what the inbox is told of a session run by front ("session",
// "serve", "mcp") with agent in dir; nil when the session stays out of the
// inbox (--no-inbox, inbox = false).
func inboxMeta(st *setup, agent, dir, front string) *ahp.SessionMeta {
	if !st.settings.Inbox {
		return nil
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return &ahp.SessionMeta{Agent: agent, Cwd: dir, PID: os.Getpid(), Front: front}
}

// publishSession puts an interactive session in the user's inbox: nil
// when it stays out, or cannot go in (one line on stderr says why; the
// session goes on). The caller closes it when the session ends.
func publishSession(st *setup, cfg acpconn.Config, front string, stderr io.Writer) *serve.Served {
	meta := inboxMeta(st, st.agent.name, cfg.Dir, front)
	if meta == nil {
		return nil
	}
	sv, err := serve.Local(serve.Options{Title: st.agent.name, Version: readVersion().short(), Inbox: meta})
	if err != nil {
		inboxWarning(stderr, err)
		return nil
	}
	return sv
}

// publishMCP puts `elicit mcp`'s full screen in the user's inbox, as
// publishSession does a session: the server's name is its agent.
func publishMCP(st *setup, cfg mcpconn.Config, stderr io.Writer) *serve.Served {
	name := mcpName(cfg)
	meta := inboxMeta(st, name, cfg.Dir, "mcp")
	if meta == nil {
		return nil
	}
	sv, err := serve.Local(serve.Options{Title: name, Version: readVersion().short(), Inbox: meta})
	if err != nil {
		inboxWarning(stderr, err)
		return nil
	}
	return sv
}

// inboxWarning says in one line that the session is not in the inbox.
func inboxWarning(stderr io.Writer, err error) {
	fmt.Fprintln(stderr, "elicit: this session is not in elicit inbox:", sanitize.Line(err.Error()))
}

// mcpName names an MCP server for the inbox: its URL, or its command's
// name (for a launcher such as npx, the package it runs).
func mcpName(c mcpconn.Config) string {
	if c.URL != "" {
		return c.URL
	}
	if len(c.Argv) == 0 {
		return "mcp"
	}
	name := filepath.Base(c.Argv[0])
	switch name {
	case "npx", "uvx", "bunx", "pipx", "docker":
		for _, a := range c.Argv[1:] {
			if a != "" && a[0] != '-' && a != "run" {
				return a
			}
		}
	}
	return name
}
