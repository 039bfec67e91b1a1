package acpconn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// Config says which agent to start and what this client declares.
type Config struct {
	Argv          []string  // the agent command and its arguments
	Dir           string    // working directory and fs root; "" = the current one
	Env           []string  // nil = this process's environment
	NoForm, NoURL bool      // withhold form or URL elicitation
	Log           io.Writer // full protocol trace and SDK diagnostics; nil discards
	ClientVersion string
	// NoRateLimit answers every elicitation however fast they come: for a
	// caller that answers without a person (elicit -p), where the limit
	// would only decline scripted answers.
	NoRateLimit bool
	// OnStart, when set, is called with the connection as soon as it
	// exists, before initialize: the caller can read Events from then on,
	// so a question the agent asks while it starts (a request-scoped
	// elicitation during initialize, authenticate or session/new) is shown
	// at once.
	OnStart func(*Conn)
}

// Conn is a running agent and the ACP connection to it.
type Conn struct {
	cfg    Config
	root   string
	proc   *process
	rpc    *acp.Connection
	reader *throttledReader
	tracer *tracer

	events    chan Event
	closed    chan struct{}
	closeOnce sync.Once
	exited    chan struct{} // closed after AgentExited was emitted

	nextID  atomic.Uint64
	mu      sync.Mutex
	pending map[uint64]*pending
	recent  []time.Time
	paused  atomic.Bool
	session string
	// cancelling is set from CancelTurn to the next prompt: a request the
	// agent withdraws meanwhile was withdrawn because of the cancel.
	cancelling atomic.Bool
	strays     strayLines // stdout lines that are not JSON-RPC (stdout.go)

	// Info is the agent's initialize response.
	Info acp.InitializeResponse
}

// Start launches the agent, connects to it and runs initialize.
func Start(ctx context.Context, cfg Config) (*Conn, error) {
	dir := cfg.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = wd
	}
	root, err := filepath.Abs(dir)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	proc, err := startProcess(cfg.Argv, root, cfg.Env)
	if err != nil {
		return nil, err
	}
	c := &Conn{
		cfg: cfg, root: root, proc: proc,
		events:  make(chan Event, 1024),
		closed:  make(chan struct{}),
		exited:  make(chan struct{}),
		pending: map[uint64]*pending{},
		tracer:  newTracer(cfg.Log),
	}
	c.reader = newThrottledReader(proc.stdout, c.closed, c.tracer.line)
	c.reader.stray = c.stray
	c.rpc = acp.NewConnection(c.handle, c.tracer.writer(proc.stdin), c.reader)
	c.rpc.SetLogger(c.tracer.logger())
	c.reader.open()
	go c.watch()
	if cfg.OnStart != nil {
		cfg.OnStart(c)
	}
	if err := c.initialize(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *Conn) initialize(ctx context.Context) error {
	caps := acp.ClientCapabilities{Fs: acp.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}, Terminal: false,
		Auth: acp.AuthCapabilities{Terminal: true}} // terminal sign-in: see auth.go
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
	resp, err := acp.SendRequest[acp.InitializeResponse](c.rpc, ctx, acp.AgentMethodInitialize, acp.InitializeRequest{
		ProtocolVersion:    acp.ProtocolVersionNumber,
		ClientCapabilities: caps,
		ClientInfo:         &acp.Implementation{Name: "elicit", Title: &title, Version: orDefault(c.cfg.ClientVersion, "dev")},
	})
	if err != nil {
		return c.describe("initialize", err)
	}
	c.Info = resp
	return nil
}

// describe turns a failed call into an error that says what happened to
// the agent when it is gone.
func (c *Conn) describe(what string, err error) error {
	select {
	case <-c.exited:
		return fmt.Errorf("%s: the agent exited (%s)", what, c.proc.exit)
	case <-c.rpc.Done():
		if c.reader.tooLong.Load() {
			return fmt.Errorf("%s: %w", what, ErrLineTooLong)
		}
		// The pipe closes a moment before the exit is reaped: wait for it.
		select {
		case <-c.proc.done:
			return fmt.Errorf("%s: the agent exited (%s)", what, c.proc.exit)
		case <-time.After(500 * time.Millisecond):
		}
		return fmt.Errorf("%s: the connection to the agent closed", what)
	default:
	}
	return fmt.Errorf("%s: %w", what, readable(err))
}

// rpcError is a JSON-RPC error from the agent, worded for people: the
// message, the detail the agent put in data, and the code.
type rpcError struct{ *acp.RequestError }

func (e rpcError) Error() string {
	msg := sanitize.Line(e.Message)
	if d := dataText(e.Data); d != "" && d != msg {
		msg += ": " + d // the agent's reason (see auth.go)
	}
	return fmt.Sprintf("%s (%d)", msg, e.Code)
}

func (e rpcError) Unwrap() error { return e.RequestError }

// readable rewords a JSON-RPC error; other errors pass as they are.
func readable(err error) error {
	var re *acp.RequestError
	if errors.As(err, &re) {
		return rpcError{re}
	}
	return err
}

// AgentName is the agent's title, else its name, else the command.
func (c *Conn) AgentName() string {
	if i := c.Info.AgentInfo; i != nil {
		if i.Title != nil && *i.Title != "" {
			return sanitize.Line(*i.Title)
		}
		if i.Name != "" {
			return sanitize.Line(i.Name)
		}
	}
	return sanitize.Line(filepath.Base(c.cfg.Argv[0]))
}

// AgentVersion is the version the agent reported, if any.
func (c *Conn) AgentVersion() string {
	if i := c.Info.AgentInfo; i != nil {
		return sanitize.Line(i.Version)
	}
	return ""
}

// Events delivers what the agent does, in order. The UI must keep reading
// it: a slow reader slows the agent down (backpressure), nothing is lost.
func (c *Conn) Events() <-chan Event { return c.events }

// emit hands an event to the UI, waiting while the UI catches up.
func (c *Conn) emit(ev Event) {
	select {
	case c.events <- ev:
	case <-c.closed:
	}
}

// Root is the session's directory, the only tree fs requests may touch.
func (c *Conn) Root() string { return c.root }

// Pid is the agent process's id (it leads its own process group).
func (c *Conn) Pid() int { return c.proc.cmd.Process.Pid }

// StderrTail returns the last lines the agent wrote to stderr.
func (c *Conn) StderrTail() []string { return c.proc.Tail() }

// Exited is closed once the agent has exited and AgentExited was emitted.
func (c *Conn) Exited() <-chan struct{} { return c.exited }

// watch waits for the agent or the connection to end, makes sure both do,
// and reports it once.
func (c *Conn) watch() {
	reason := ""
	select {
	case <-c.proc.done:
		// What the agent wrote before it exited is still in the pipe: let
		// the connection read it all (the UI keeps consuming) before the
		// exit is reported after it.
		select {
		case <-c.rpc.Done():
		case <-c.closed:
		case <-time.After(5 * time.Second):
		}
	case <-c.rpc.Done():
		select {
		case <-c.proc.done:
		case <-time.After(time.Second):
			reason = "the agent closed its output"
			c.proc.stop(time.Second)
		}
	}
	if c.reader.tooLong.Load() {
		reason = ErrLineTooLong.Error()
	}
	_ = c.proc.stdout.Close()
	c.tracer.note(fmt.Sprintf("agent exited: %s", c.proc.exit))
	c.emit(AgentExited{Exit: c.proc.exit, Reason: reason, Stderr: c.proc.Tail()})
	close(c.exited)
}

// Close ends the agent's process group and the connection. It is safe to
// call more than once.
func (c *Conn) Close() ExitInfo {
	c.closeOnce.Do(func() {
		c.tracer.note("shutdown: closing the agent's stdin and ending its process group")
		c.proc.stop(2 * time.Second)
		close(c.closed)
	})
	<-c.exited
	return c.proc.exit
}

// IsAuthRequired reports whether err is the agent's -32000 "authentication
// required".
func IsAuthRequired(err error) bool {
	var re *acp.RequestError
	return errors.As(err, &re) && re.Code == -32000
}

// logDiscard is the logger used when no trace file is set: the SDK would
// otherwise write to stderr and corrupt the screen.
var logDiscard = slog.New(slog.DiscardHandler)
