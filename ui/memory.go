package ui

import (
	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/audit"
	histstore "github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/session/hooks"
)

// Memory is what every front end hands its session core: hooks, history
// and the audit log (each may be nil), and the agent's name for them.
type Memory struct {
	Hooks   *hooks.Runner
	History *histstore.Store
	Audit   *audit.Log
	Agent   string
}

// For binds the memory to a connection: its directory and session id.
func (m Memory) For(c *acpconn.Conn) session.Memory {
	return session.Memory{Hooks: m.Hooks, History: m.History, Audit: m.Audit, Agent: m.Agent,
		Cwd: c.Root(), SessionID: c.SessionID}
}
