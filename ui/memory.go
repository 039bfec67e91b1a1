package ui

import (
	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/audit"
	"github.com/elicit-dev/elicit/internal/config"
	histstore "github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/permissions"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/session/hooks"
)

// Memory is what every front end hands its session core: hooks, history
// and the audit log (each may be nil), the user's permission rules, and
// the agent's name for them.
type Memory struct {
	Hooks   *hooks.Runner
	History *histstore.Store
	Audit   *audit.Log
	Agent   string
	// Rules are the permission rules in force (nil: none); ConfigPath is
	// the config file, beside which "always allow here" keeps a
	// directory's rules ("": the choice is not offered).
	Rules      *permissions.Set
	ConfigPath string
}

// For binds the memory to a connection: its directory and session id.
func (m Memory) For(c *acpconn.Conn) session.Memory {
	mem := session.Memory{Hooks: m.Hooks, History: m.History, Audit: m.Audit, Agent: m.Agent,
		Cwd: c.Root(), SessionID: c.SessionID, Rules: m.Rules, Env: c.RuleEnv()}
	if m.ConfigPath != "" && m.Rules != nil {
		p := config.ProjectFor(m.ConfigPath, c.Root())
		mem.Project = &p
	}
	return mem
}
