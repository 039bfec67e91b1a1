package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/audit"
	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/session/hooks"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/ui"
)

// loadConfig reads the configuration file: the one --config names (which
// must exist), else the default one (which may not).
func loadConfig(path string) (*config.Config, string, error) {
	if path != "" {
		c, err := config.Load(path)
		return c, path, err
	}
	path = config.DefaultPath()
	c, err := config.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		c, err = config.Parse(nil, path)
	}
	return c, path, err
}

// setup is what the configuration and the flags make of a session: the
// agent's command, environment and directory, and its memory (hooks,
// history, audit).
type setup struct {
	agent    resolvedAgent
	memory   ui.Memory
	settings config.Settings
	// urls analyzes the URLs agents and servers send: lookalikes of the
	// built-in well-known domains, the --top-domains files', the config's
	// top_domains and the user's own sites (history) are flagged.
	urls    *urlcheck.Analyzer
	closers []func()
}

func (s *setup) close() {
	for _, c := range slices.Backward(s.closers) {
		c()
	}
}

// resolvedAgent is the agent a command line names: argv to run, with env
// (nil: elicit's own) in dir ("" : the --cwd or current one).
type resolvedAgent struct {
	name      string
	argv, env []string
	dir       string
	remote    remoteEntry         // a named agent's url and its companions
	apiKeyEnv string              // the config's api_key_env
	mcp       []acpconn.MCPServer // the file's [mcp_servers], resolved for this agent
}

// resolveAgent finds the agent: a name from the configuration or the
// built-ins, the command after --, or (neither) the demo agent, whose argv
// is left empty for agentConfig. suggest names the subcommands close to an
// unknown name.
func resolveAgent(cfg *config.Config, name string, argv []string, suggest func(string) []string) (resolvedAgent, error) {
	switch {
	case name != "":
		a, err := cfg.Agent(name)
		if err != nil {
			if suggest != nil {
				err = fmt.Errorf("%w%s", err, suggestion(suggest(name)))
			}
			return resolvedAgent{}, err
		}
		env := a.Environ(os.Environ())
		return resolvedAgent{name: a.Name, argv: a.Command, env: env, dir: a.Cwd, apiKeyEnv: a.APIKeyEnv, mcp: mcpServers(cfg, env),
			remote: remoteEntry{url: a.URL, tokenEnv: a.TokenEnv, ca: a.CA, transport: a.Transport}}, nil
	case len(argv) > 0:
		return resolvedAgent{name: argv[0], argv: argv, mcp: mcpServers(cfg, nil)}, nil
	}
	return resolvedAgent{name: "demo", mcp: mcpServers(cfg, nil)}, nil
}

// newSetup resolves the agent and opens hooks, history and the audit log;
// top are the --top-domains files' domains.
func newSetup(req sessionRequest, cfg *config.Config, top []string) (*setup, error) {
	o := req.opts.files
	var ov config.Overrides
	if o.noHistory {
		off := false
		ov.History = &off
	}
	if o.noInbox {
		off := false
		ov.Inbox = &off
	}
	s := &setup{settings: cfg.Settings(ov)}
	top = append(slices.Clip(top), s.settings.TopDomains...)
	agent, err := resolveAgent(cfg, req.name, req.argv, req.suggest)
	if err != nil {
		return nil, err
	}
	s.agent = agent
	s.memory.Agent = agent.name
	s.memory.Hooks = hooks.New(cfg.Hooks)
	if s.settings.History {
		h, err := history.Open(history.DefaultDir())
		if err != nil {
			return nil, fmt.Errorf("history: %w (--no-history turns it off)", err)
		}
		s.memory.History = h
		// A host that looks like one of the user's own sites is a
		// lookalike, as for the well-known list.
		if sites, err := h.Sites(); err == nil {
			top = append(top, sites...)
		}
	}
	s.urls = urlcheck.NewAnalyzer(top...)
	if o.audit != "" {
		l, err := audit.Open(o.audit)
		if err != nil {
			return nil, err
		}
		s.memory.Audit = l
		s.closers = append(s.closers, func() { l.Close() })
	}
	return s, nil
}

// dumbTerminal reports a terminal that cannot address the cursor (TERM
// unset, "dumb" or "unknown"): the full screen cannot be drawn there.
func dumbTerminal() bool {
	switch os.Getenv("TERM") {
	case "", "dumb", "unknown":
		return true
	}
	return false
}

// noColor is NO_COLOR, or the configuration's wish for no colour.
func noColor() bool { return theme.NoColor() }
