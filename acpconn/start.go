package acpconn

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/procgroup"
)

// DefaultStartTimeout is how long the agent has to answer initialize, and
// then session/new, unless Config.StartTimeout says otherwise.
const DefaultStartTimeout = 60 * time.Second

// StartProgress says the agent is still starting: the request it has not
// answered yet and for how long (0 when the request was just sent). The
// hook gets one at each stage's start and one a second after.
type StartProgress struct {
	Stage   string // "initialize" or "session/new"
	Elapsed time.Duration
}

// Start launches the agent, connects to it and runs initialize. The agent
// is tracked by cfg.Lifecycle from the moment it runs, so a Shutdown (or
// ctx ending) while it starts ends it too.
func Start(ctx context.Context, cfg Config) (*Conn, error) {
	if cfg.Remote != nil {
		return startRemote(ctx, cfg)
	}
	root, alias, err := sessionRoot(cfg.Dir)
	if err != nil {
		return nil, err
	}
	lc := cfg.Lifecycle
	if lc == nil {
		lc = procgroup.Default
	}
	fsRoot, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	proc, err := startProcess(lc, cfg.Argv, root, cfg.Env)
	if err != nil {
		fsRoot.Close()
		return nil, err
	}
	return connect(ctx, cfg, proc, newTracer(cfg.Log), root, alias, fsRoot, lc)
}

// connect runs the ACP connection over a link that is up, and initialize.
func connect(ctx context.Context, cfg Config, l link, tr *tracer, root, alias string, fsRoot *os.Root, lc *procgroup.Lifecycle) (*Conn, error) {
	c := &Conn{
		cfg: cfg, root: root, rootAlias: alias, fsRoot: fsRoot, lc: lc, link: l,
		events:   make(chan Event, 1024),
		closed:   make(chan struct{}),
		exited:   make(chan struct{}),
		pending:  map[uint64]*pending{},
		sessions: map[string]bool{},
		tracer:   tr,
	}
	c.early.Store(true)
	c.hideMCPSecrets()
	c.approvals = newApprovals(c.closed)
	c.gate = newGate(c)
	c.out = &outWriter{w: l.sink(), tracer: c.tracer, gate: c.gate}
	c.reader = newThrottledReader(l.lines(), c.closed, c.tracer.line)
	c.reader.filter = c.gate.inspect
	c.answers.init()
	c.reader.atEOF = func() { c.answers.settle(5*time.Second, c.closed) }
	c.reader.stray = c.stray
	c.rpc = acp.NewConnection(c.handle, c.out, c.reader)
	c.rpc.SetLogger(c.tracer.logger())
	c.reader.open()
	go c.watch()
	if cfg.OnStart != nil {
		cfg.OnStart(c)
	}
	if err := c.stage(ctx, "initialize", c.initialize); err != nil {
		c.Close()
		return nil, &StartError{Err: err, Stderr: c.link.stderrTail()}
	}
	return c, nil
}

// StartError is a start that failed after the agent ran: with the last
// lines it wrote to stderr, which usually say why.
type StartError struct {
	Err    error
	Stderr []string
}

// Error is the start's error.
func (e *StartError) Error() string { return e.Err.Error() }

// Unwrap returns the start's error.
func (e *StartError) Unwrap() error { return e.Err }

// StderrOf returns the agent's last stderr lines carried by err, if any.
func StderrOf(err error) []string {
	var se *StartError
	if errors.As(err, &se) {
		return se.Stderr
	}
	return nil
}

// sessionRoot is the session directory with symlinks resolved, and as
// given (made absolute), which agents may use too.
func sessionRoot(dir string) (root, alias string, err error) {
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return "", "", err
		}
	}
	alias, err = filepath.Abs(dir)
	if err == nil {
		root, err = filepath.EvalSymlinks(alias)
	}
	if err != nil {
		return "", "", fmt.Errorf("working directory: %w", err)
	}
	return root, alias, nil
}

func (c *Conn) initialize(ctx context.Context) error {
	fs, term := c.offersFS(), c.offersTerminal()
	caps := acp.ClientCapabilities{Fs: acp.FileSystemCapabilities{ReadTextFile: fs, WriteTextFile: fs}, Terminal: term,
		Auth: acp.AuthCapabilities{Terminal: c.cfg.Remote == nil}, // terminal sign-in (auth.go): a command of this machine
		Meta: terminalMetaCaps()}                                  // the agents' terminal extension (terminal_meta.go): display only, so remote agents too
	el := &acp.ElicitationCapabilities{}
	if !c.cfg.NoForm {
		el.Form = &acp.ElicitationFormCapabilities{}
	}
	if !c.cfg.NoURL {
		el.Url = &acp.ElicitationUrlCapabilities{}
	}
	if el.Form != nil || el.Url != nil {
		caps.Elicitation = el // in ACP an empty object would mean no mode at all
	}
	title := "elicit"
	resp, err := sendRequest[acp.InitializeResponse](c, ctx, acp.AgentMethodInitialize, acp.InitializeRequest{
		ProtocolVersion:    acp.ProtocolVersionNumber,
		ClientCapabilities: caps,
		ClientInfo:         &acp.Implementation{Name: "elicit", Title: &title, Version: orDefault(c.cfg.ClientVersion, "dev")},
	})
	if err != nil {
		return err
	}
	c.Info = resp
	return nil
}

// stage runs one start-up request under the start timeout, reporting
// progress, and words its failure: which request did not answer, in how
// long, or that elicit is shutting down.
func (c *Conn) stage(ctx context.Context, name string, f func(context.Context) error) error {
	d := c.cfg.StartTimeout
	if d <= 0 {
		d = DefaultStartTimeout
	}
	sctx, cancel := context.WithTimeoutCause(ctx, d, fmt.Errorf("the agent did not answer %s within %s", name, seconds(d)))
	defer cancel()
	stop := c.progress(name)
	err := f(sctx)
	stop()
	switch {
	case err == nil:
		return nil
	case c.lc.ShuttingDown():
		return fmt.Errorf("%s: stopped: elicit is shutting down", name)
	case ctx.Err() != nil:
		return fmt.Errorf("%s: %w", name, context.Cause(ctx))
	case sctx.Err() != nil:
		return context.Cause(sctx)
	}
	if IsAuthRequired(err) {
		return err
	}
	return c.describe(name, err)
}

// progress calls the Progress hook now and every second until stop.
func (c *Conn) progress(stage string) (stop func()) {
	hook := c.cfg.Progress
	if hook == nil {
		return func() {}
	}
	hook(StartProgress{Stage: stage})
	begun := time.Now()
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				hook(StartProgress{Stage: stage, Elapsed: now.Sub(begun).Round(time.Second)})
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// seconds words a timeout the way people say it: 60s, 1.5s, 300ms.
func seconds(d time.Duration) string {
	if d >= time.Second && d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}
