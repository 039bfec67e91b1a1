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

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// Config says which agent to start and what this client declares.
type Config struct {
	Argv          []string  // the agent command and its arguments (unless Remote)
	Dir           string    // working directory and fs root; "" = the current one
	Env           []string  // nil = this process's environment
	NoForm, NoURL bool      // withhold form or URL elicitation
	Log           io.Writer // full protocol trace and SDK diagnostics; nil discards
	ClientVersion string

	// Lifecycle tracks the agent's process group from the moment it runs;
	// nil means procgroup.Default, which main shuts down on every exit.
	Lifecycle *procgroup.Lifecycle
	// StartTimeout bounds initialize and session/new, each; 0 means
	// DefaultStartTimeout.
	StartTimeout time.Duration
	// Progress, when set, is called while the agent starts (see
	// StartProgress), from a goroutine of the connection: it must not block.
	Progress func(StartProgress)

	// Writes decides the agent's fs/write_text_file requests that no
	// permission settled (the zero value allows them, inside the session
	// directory only, except to files that run code later). A write a
	// permission's diff covers must match it under every policy.
	Writes WritePolicy
	// AskWrite, when set, decides each write under WritesAsked; without
	// it the write is asked as a permission question whose Write is set (to
	// Serve's Handler.RequestPermission, or on Events).
	AskWrite func(ctx context.Context, w WriteRequest) bool
	// WritesRefusedWhy ends the refusal's message, to the agent and in the
	// Notice: what the user can do (say, "run with --approve").
	WritesRefusedWhy string
	// Terminals decides the agent's terminal/create requests (the zero
	// value runs them, each reported in a Notice).
	Terminals TerminalPolicy
	// TerminalsRefusedWhy ends a refusal's message, as WritesRefusedWhy.
	TerminalsRefusedWhy string
	// AllowWrites are paths (globs relative to the session directory, or
	// directories) the user lets the agent write although they run code
	// later (CodeRisk): --allow-write.
	AllowWrites []string
	// OnStart, when set, is called with the connection as soon as it
	// exists, before initialize: the caller can read Events from then on,
	// so a question the agent asks while it starts (a request-scoped
	// elicitation during initialize, authenticate or session/new) is shown
	// at once.
	OnStart func(*Conn)

	// MCPServers are the MCP servers the agent is asked to connect to in
	// every session request, those its mcpCapabilities allow (see
	// MCPServers on Conn for what became of each).
	MCPServers []MCPServer
	// URLs analyzes the URLs the agent asks the user to open, checking
	// lookalikes against its well-known domains; nil: the built-in list.
	URLs *urlcheck.Analyzer

	// Remote, when set, reaches an agent that runs elsewhere over ACP's
	// Streamable HTTP & WebSocket transport instead of starting Argv (see
	// Remote). Dir is then the directory sent to the agent; it is opened
	// here only when Remote.AllowFS or AllowTerminal lets the agent into it.
	Remote *Remote
}

// Conn is a running agent and the ACP connection to it.
type Conn struct {
	cfg       Config
	root      string   // the session directory, symlinks resolved
	rootAlias string   // the same as given, made absolute
	fsRoot    *os.Root // every fs access goes through it
	lc        *procgroup.Lifecycle
	link      link // the agent's process, or its network connection (transport.go)
	rpc       *acp.Connection
	reader    *throttledReader
	gate      *gate
	out       *outWriter
	tracer    *tracer
	approvals *approvals // what the user approved, per file (approvals.go)

	events    chan Event
	closed    chan struct{}
	closeOnce sync.Once
	exited    chan struct{} // closed after AgentExited was emitted

	// early is set until the first session exists: the UI may not read
	// events yet, so emit never blocks (see emit).
	early   atomic.Bool
	dropped atomic.Int64

	nextID   atomic.Uint64
	mu       sync.Mutex
	pending  map[uint64]*pending
	overflow int // requests cancelled at once since the last notice (see MaxWaiting)
	ovTimer  *time.Timer
	session  string
	sessions map[string]bool // every session this client created
	foreign  map[string]bool // foreign session ids noted
	// cancelling is set from CancelTurn to the next prompt: a request the
	// agent withdraws meanwhile was withdrawn because of the cancel.
	cancelling atomic.Bool
	terms      terminals     // terminal/* (terminal.go)
	termSrv    termServer    // terminal/* requests in order (terminal_serve.go)
	metaTerms  metaTerminals // the agents' _meta terminal extension (terminal_meta.go)
	fsBudget   budget        // what fs requests in flight may hold (budget.go)
	answers    answerCount   // answers handed to the SDK and picked up (answers.go)
	strays     strayLines    // stdout lines that are not JSON-RPC (stdout.go)
	echo       promptEcho    // the agent's echo of the running prompt (session.go)
	mcp        mcpPlan       // the MCP servers given to the agent (mcpservers.go)

	serving atomic.Pointer[server] // the Serve running, if any (serve.go)

	// Info is the agent's initialize response.
	Info acp.InitializeResponse
}

// describe turns a failed call into an error that says what happened to
// the agent when it is gone.
func (c *Conn) describe(what string, err error) error {
	if f := c.link.failure(); f != nil { // a remote agent's refusal says more than the call's error
		if IsAuthError(f) || errors.Is(f, ErrLineTooLong) {
			return f
		}
		return fmt.Errorf("%s: %w", what, f)
	}
	select {
	case <-c.exited:
		return fmt.Errorf("%s: the agent exited (%s)", what, c.link.exitInfo())
	case <-c.rpc.Done():
		if c.reader.tooLong.Load() {
			return fmt.Errorf("%s: %w", what, ErrLineTooLong)
		}
		// The pipe closes a moment before the exit is reaped: wait for it.
		select {
		case <-c.link.gone():
			if f := c.link.failure(); f != nil {
				return fmt.Errorf("%s: %w", what, f)
			}
			return fmt.Errorf("%s: the agent exited (%s)", what, c.link.exitInfo())
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
	if r := c.cfg.Remote; r != nil {
		if u, err := CheckURL(r.URL, true); err == nil {
			return sanitize.Line(u.Hostname())
		}
		return "remote agent"
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

// emit hands an event to the UI, waiting while the UI catches up; it
// reports whether the event was delivered. Until the first session exists
// the UI may not be reading yet, so an event that does not fit the buffer
// then is dropped and counted (and a request that was not delivered is
// answered at once by its handler), never a reason to stall the agent's
// start.
func (c *Conn) emit(ev Event) bool {
	if c.early.Load() {
		select {
		case c.events <- ev:
			return true
		case <-c.closed:
			return false
		default:
			c.dropped.Add(1)
			c.tracer.note(fmt.Sprintf("dropped %T: the UI is not reading yet", ev))
			return false
		}
	}
	select {
	case c.events <- ev:
		return true
	case <-c.closed:
		return false
	}
}

// Root is the session's directory, the only tree fs requests may touch.
func (c *Conn) Root() string { return c.root }

// Pid is the agent process's id (it leads its own process group); 0 for
// a remote agent.
func (c *Conn) Pid() int { return c.link.pid() }

// StderrTail returns the last lines the agent wrote to stderr (none for a
// remote agent).
func (c *Conn) StderrTail() []string { return c.link.stderrTail() }

// Exited is closed once the agent has exited and AgentExited was emitted.
func (c *Conn) Exited() <-chan struct{} { return c.exited }

// watch waits for the agent or the connection to end, makes sure both do,
// and reports it once.
func (c *Conn) watch() {
	reason := ""
	select {
	case <-c.link.gone():
		// The agent is gone: what it started goes too (a crashed agent
		// leaves no orphans). What it wrote before it exited is still in
		// the pipe: let the connection read it all (the UI keeps
		// consuming) before the exit is reported after it.
		go c.link.cleanup()
		select {
		case <-c.rpc.Done():
		case <-c.closed:
		case <-time.After(5 * time.Second):
		}
	case <-c.rpc.Done():
		select {
		case <-c.link.gone():
		case <-time.After(time.Second):
			reason = "the agent closed its output"
			c.link.stop()
		}
	}
	if c.reader.tooLong.Load() || errors.Is(c.link.failure(), ErrLineTooLong) {
		reason = ErrLineTooLong.Error()
	}
	c.link.closeLines()
	c.link.settle(time.Second)
	exit := c.link.exitInfo()
	c.tracer.note(fmt.Sprintf("agent exited: %s", exit))
	c.early.Store(false) // the exit is always delivered
	c.emit(question.Gone{Lost: exit.Lost})
	c.emit(AgentExited{Exit: exit, Reason: reason, Stderr: c.link.stderrTail()})
	close(c.exited)
}

// Close ends the agent's whole process group and the connection: the
// agent's stdin is closed, then the group gets SIGTERM and SIGKILL, and
// Close returns when no process of the group runs. It is safe to call
// more than once.
func (c *Conn) Close() ExitInfo {
	c.closeOnce.Do(func() {
		if c.cfg.Remote != nil {
			c.tracer.note("shutdown: ending the connection")
		} else {
			c.tracer.note("shutdown: closing the agent's stdin and ending its process group")
		}
		c.closeTerminals()
		c.link.stop()
		close(c.closed)
		c.fsBudget.close()
		if c.fsRoot != nil {
			c.fsRoot.Close()
		}
	})
	<-c.exited
	return c.link.exitInfo()
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

// addSession records a session this client created.
func (c *Conn) addSession(id string) {
	c.mu.Lock()
	if c.sessions == nil {
		c.sessions = map[string]bool{}
	}
	c.sessions[id] = true
	c.mu.Unlock()
}

// knownSession reports whether this client created session id; when not,
// the first few foreign ids are noted (what names the thing refused).
func (c *Conn) knownSession(id, what string) bool {
	c.mu.Lock()
	known := c.sessions[id]
	first := false
	if !known && len(c.foreign) < 8 && !c.foreign[id] {
		if c.foreign == nil {
			c.foreign = map[string]bool{}
		}
		c.foreign[id], first = true, true
	}
	c.mu.Unlock()
	if !known {
		c.tracer.note(fmt.Sprintf("refused %s for unknown session %q", what, id))
	}
	if first {
		c.emit(Notice{Text: fmt.Sprintf("ignored %s for session %q: this client did not create it (or not yet)", what, sanitize.Summary(id, 40)), Error: true})
	}
	return known
}
