package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/elicit-dev/elicit/internal/audit"
	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/internal/hooks"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/ui"
	"github.com/elicit-dev/elicit/urlconsent/urlcheck"
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
// agent's command and environment, and its memory (hooks, history, audit).
type setup struct {
	argv, env []string
	name      string
	memory    ui.Memory
	settings  config.Settings
	closers   []func()
	remote    remoteEntry // a named agent's url and its companions
}

func (s *setup) close() {
	for _, c := range slices.Backward(s.closers) {
		c()
	}
}

// newSetup resolves the agent (a named one from the configuration, the
// command after --, or the demo agent) and opens hooks, history and the
// audit log.
func newSetup(o options, cfg *config.Config, argv []string, explicit bool) (*setup, error) {
	s := &setup{argv: argv}
	var ov config.Overrides
	if o.noHistory {
		off := false
		ov.History = &off
	}
	s.settings = cfg.Settings(ov)
	urlcheck.AddTopDomains(s.settings.TopDomains...)
	switch {
	case len(argv) == 1 && !explicit:
		a, err := cfg.Agent(argv[0])
		if err != nil {
			return nil, err
		}
		s.argv, s.env, s.name = a.Command, a.Environ(os.Environ()), a.Name
		s.remote = remoteEntry{url: a.URL, tokenEnv: a.TokenEnv, ca: a.CA, transport: a.Transport}
		if a.Cwd != "" && o.cwd == "" {
			o.cwd = a.Cwd
		}
	case len(argv) > 0:
		s.name = argv[0]
	default:
		s.name = "demo"
	}
	s.memory.Agent = s.name
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
			urlcheck.AddTopDomains(sites...)
		}
	}
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

// subcommand runs the configuration's sub-commands (`elicit config …`,
// `elicit agents`, `elicit history …`); ok is false for anything else.
func subcommand(args []string) (code int, ok bool) {
	if len(args) == 0 {
		return 0, false
	}
	switch args[0] {
	case "config", "agents":
		path := config.DefaultPath()
		return config.RunCLI(args, textOut(os.Stdout), textOut(os.Stderr), path), true
	case "history":
		return history.RunCLI(args[1:], textOut(os.Stdout), textOut(os.Stderr), history.DefaultDir()), true
	}
	return 0, false
}
