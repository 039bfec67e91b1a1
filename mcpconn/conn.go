package mcpconn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/internal/netclient"
	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// Config says which server to connect to and what to declare.
type Config struct {
	// Argv is a stdio server's command and arguments; Dir its working
	// directory ("" = the current one) and Env its environment (nil = this
	// process's).
	Argv []string
	Dir  string
	Env  []string
	// URL is a streamable HTTP endpoint (instead of Argv); Header is sent
	// with every request to its origin (--header), through netclient's
	// setup (no redirect followed, every message capped). HTTPClient's
	// Transport, when set, is the round tripper under that setup (a
	// test's); nothing else of it is used.
	URL        string
	Header     http.Header
	HTTPClient *http.Client
	// NoForm and NoURL withhold form or URL elicitation.
	NoForm, NoURL bool
	// URLs analyzes the URLs the server asks the user to open, checking
	// lookalikes against its well-known domains; nil: the built-in list.
	URLs *urlcheck.Analyzer
	// ClientName and ClientVersion are the clientInfo sent ("elicit").
	ClientName, ClientVersion string
	// Log receives the full protocol trace; nil discards it.
	Log io.Writer
	// Lifecycle tracks a stdio server's process group from the moment it
	// runs; nil means procgroup.Default, which main shuts down on every exit.
	Lifecycle *procgroup.Lifecycle
	// ProtocolVersion asks for a protocol version ("" = the SDK's latest,
	// 2026-07-28, falling back to 2025-11-25 for servers that do not know it).
	ProtocolVersion string
	// StartTimeout bounds the connection's set-up (the process start and
	// initialize); 0 means DefaultStartTimeout.
	StartTimeout time.Duration
}

// DefaultStartTimeout bounds Connect when Config.StartTimeout is 0.
const DefaultStartTimeout = time.Minute

// ServerInfo is what the server said of itself at initialize, sanitized.
type ServerInfo struct {
	Name, Title, Version string
	Instructions         string
	Protocol             string
}

// Display is the server's title, else its name.
func (s ServerInfo) Display() string {
	if s.Title != "" {
		return s.Title
	}
	return s.Name
}

// Conn is a connection to one MCP server.
type Conn struct {
	cfg    Config
	client *mcp.Client
	cs     *mcp.ClientSession
	proc   *process // nil over HTTP
	obs    *observer
	forms  *schema.Cache // the form schemas parsed, by their bytes
	events chan Event
	done   chan struct{} // closed once the connection ended
	quit   chan struct{} // closed by Close: handlers stop waiting
	info   ServerInfo

	stopConnect context.CancelFunc // ends Connect's wait (set before the transport runs)

	mu      sync.Mutex
	pending map[uint64]*pending
	nextID  uint64
	calls   map[string]string // progress token -> tool name, of the calls running
	titles  map[string]string // tool name -> its display title, from the last Tools
	broken  error             // why elicit ended an HTTP connection (see broke)
	ended   bool
	exited  sync.Once
	closing sync.Once
}

// Connect starts the server (stdio) or reaches it (HTTP), initializes the
// session and returns once it is ready. Read Events from then on.
func Connect(ctx context.Context, cfg Config) (*Conn, error) {
	if (len(cfg.Argv) == 0) == (cfg.URL == "") {
		return nil, errors.New("mcpconn: give either a server command or a URL")
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.Lifecycle == nil {
		cfg.Lifecycle = procgroup.Default
	}
	if cfg.ClientName == "" {
		cfg.ClientName = "elicit"
	}
	c := &Conn{cfg: cfg, obs: newObserver(cfg.Log), forms: schema.NewCache(schema.DefaultCacheEntries), events: make(chan Event, 256), done: make(chan struct{}), quit: make(chan struct{}),
		pending: map[uint64]*pending{}, calls: map[string]string{}}
	c.obs.refused = c.refusedBySDK
	c.client = mcp.NewClient(&mcp.Implementation{Name: cfg.ClientName, Title: "elicit", Version: cfg.ClientVersion}, c.options())
	ctx, cancel := context.WithTimeout(ctx, cfg.StartTimeout)
	defer cancel()
	c.stopConnect = cancel
	t, err := c.transport()
	if err != nil {
		return nil, err
	}
	cs, err := c.client.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: cfg.ProtocolVersion})
	c.mu.Lock()
	broken := c.broken
	if broken == nil {
		c.cs = cs // from now on broke closes it
	}
	c.mu.Unlock()
	if broken != nil {
		if cs != nil {
			cs.Close()
		}
		return nil, broken
	}
	if err != nil {
		if c.proc != nil {
			c.proc.stop()
			if tail := c.proc.stderrTail(); len(tail) > 0 {
				return nil, &StartError{Err: err, Stderr: tail}
			}
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("the server did not answer initialize within %s", cfg.StartTimeout)
		}
		return nil, err
	}
	if r := cs.InitializeResult(); r != nil {
		c.info.Protocol = r.ProtocolVersion
		c.info.Instructions = sanitize.Text(r.Instructions)
		if si := r.ServerInfo; si != nil {
			c.info.Name, c.info.Title, c.info.Version = sanitize.Line(si.Name), sanitize.Line(si.Title), sanitize.Line(si.Version)
		}
	}
	if c.info.Name == "" {
		c.info.Name = "the server"
	}
	go c.watch()
	return c, nil
}

// StartError is a failed start of a stdio server, with the last lines it
// wrote to stderr.
type StartError struct {
	Err    error
	Stderr []string
}

// Error is the start's error.
func (e *StartError) Error() string { return e.Err.Error() }

// Unwrap returns the start's error.
func (e *StartError) Unwrap() error { return e.Err }

// options are the SDK client's options: the capabilities elicit declares
// (form and URL elicitation, each unless withheld; no roots, no
// sampling, no tasks) and the handlers that turn the server's messages
// into events.
func (c *Conn) options() *mcp.ClientOptions {
	caps := &mcp.ClientCapabilities{}
	o := &mcp.ClientOptions{
		Capabilities: caps,
		Logger:       c.logger(),
		ElicitationCompleteHandler: func(_ context.Context, r *mcp.ElicitationCompleteNotificationRequest) {
			c.emit(question.FlowComplete{ElicitationID: r.Params.ElicitationID})
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			p := r.Params
			c.emit(Progress{Token: fmt.Sprint(p.ProgressToken), Progress: p.Progress, Total: p.Total, Message: sanitize.Line(p.Message)})
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			c.emit(Log{Level: sanitize.Line(string(r.Params.Level)), Logger: sanitize.Line(r.Params.Logger), Text: sanitize.Summary(logText(r.Params.Data), 2000)})
		},
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { c.emit(ListChanged{What: "tools"}) },
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { c.emit(ListChanged{What: "prompts"}) },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { c.emit(ListChanged{What: "resources"}) },
	}
	if c.cfg.NoForm && c.cfg.NoURL {
		return o // no handler: no elicitation capability at all
	}
	// Setting the handler alone declares form mode only; URL mode must be
	// declared here, and either mode can be withheld.
	el := &mcp.ElicitationCapabilities{}
	if !c.cfg.NoForm {
		el.Form = &mcp.FormElicitationCapabilities{}
	}
	if !c.cfg.NoURL {
		el.URL = &mcp.URLElicitationCapabilities{}
	}
	caps.Elicitation = el
	o.ElicitationHandler = c.elicit
	return o
}

func (c *Conn) logger() *slog.Logger {
	if c.cfg.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(traceWriter{c.obs}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// traceWriter puts the SDK's own diagnostics in the trace.
type traceWriter struct{ o *observer }

func (t traceWriter) Write(p []byte) (int, error) {
	t.o.trace("sdk", p)
	return len(p), nil
}

// transport starts a stdio server behind the observer's taps, or points
// a streamable HTTP client at the URL: netclient's setup under the
// observing round tripper.
func (c *Conn) transport() (mcp.Transport, error) {
	if c.cfg.URL != "" {
		u, err := url.Parse(c.cfg.URL)
		if err != nil {
			return nil, fmt.Errorf("--url: %w", err)
		}
		o := netclient.Options{Endpoint: u, Header: c.cfg.Header}
		if c.cfg.HTTPClient != nil {
			o.Base = c.cfg.HTTPClient.Transport
		}
		hc, err := netclient.New(o)
		if err != nil {
			return nil, err
		}
		hc.Transport = &tapTransport{next: hc.Transport, obs: c.obs, broke: c.broke}
		// netclient caps each event's data; the SDK's own cap (on an
		// event's bytes, field names included) stays as a second bound.
		return &mcp.StreamableClientTransport{Endpoint: c.cfg.URL, HTTPClient: hc, MaxRetries: -1, MaxEventSize: 2 * netclient.MaxMessageBytes}, nil
	}
	p, err := startProcess(c.cfg.Lifecycle, c.cfg.Argv, c.cfg.Dir, c.cfg.Env)
	if err != nil {
		return nil, err
	}
	c.proc = p
	r := &tapReader{r: p.stdout}
	r.tap.f = c.obs.in
	w := &tapWriter{w: p.stdin}
	w.tap.f = c.obs.out
	return &mcp.IOTransport{Reader: r, Writer: w}, nil
}

// broke ends an HTTP connection that netclient refused to go on with (a
// redirect, a message over the limit), once, and keeps why for Connect
// and Exited to say.
func (c *Conn) broke(err error) {
	c.mu.Lock()
	first := c.broken == nil
	if first {
		c.broken = err
	}
	cs := c.cs
	c.mu.Unlock()
	switch {
	case !first:
	case cs != nil:
		go func() { _ = cs.Close() }()
	default:
		c.stopConnect()
	}
}

// Info is what the server said of itself.
func (c *Conn) Info() ServerInfo { return c.info }

// Events delivers the server's events in order; Exited is the last, and
// then the channel is closed.
func (c *Conn) Events() <-chan Event { return c.events }

// Done is closed once the connection ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Session is the SDK's session, for what this package does not wrap.
func (c *Conn) Session() *mcp.ClientSession { return c.cs }

// StderrTail returns the last lines a stdio server wrote to stderr.
func (c *Conn) StderrTail() []string {
	if c.proc == nil {
		return nil
	}
	return c.proc.stderrTail()
}

// emit hands an event to the reader; it waits while the reader is behind
// (the server's messages wait in the pipe meanwhile), and drops nothing
// until the connection ended.
func (c *Conn) emit(ev Event) {
	c.mu.Lock()
	ended := c.ended
	c.mu.Unlock()
	if ended {
		return
	}
	select {
	case c.events <- ev:
	case <-c.done:
	}
}

// watch waits for the connection to end, then closes what waits on it
// and sends Exited, the last event.
func (c *Conn) watch() {
	err := c.cs.Wait()
	reason := "the connection closed"
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
		reason = sanitize.Line(err.Error())
	}
	c.mu.Lock()
	if c.broken != nil {
		reason = sanitize.Line(c.broken.Error())
	}
	c.mu.Unlock()
	var tail []string
	if c.proc != nil {
		select {
		case <-c.proc.done:
			reason = "the server exited (" + c.proc.exit + ")"
		case <-time.After(c.proc.grace):
		}
		c.proc.WaitStderr(time.Second)
		tail = c.proc.stderrTail()
	}
	c.finish(reason, tail)
}

func (c *Conn) finish(reason string, tail []string) {
	c.exited.Do(func() {
		c.mu.Lock()
		open := make([]uint64, 0, len(c.pending))
		for id, p := range c.pending {
			open = append(open, id)
			close(p.gone)
		}
		c.pending = map[uint64]*pending{}
		c.mu.Unlock()
		sortIDs(open)
		for _, id := range open {
			c.events <- question.Withdrawn{ID: id, Reason: "the server went away: " + reason}
		}
		c.events <- question.Gone{}
		c.events <- Exited{Reason: reason, Stderr: tail}
		c.mu.Lock()
		c.ended = true
		c.mu.Unlock()
		close(c.done)
		close(c.events)
	})
}

// Close ends the connection: a stdio server's stdin is closed, then its
// whole process group is ended. It waits until nothing of it runs; Events
// still delivers Exited.
func (c *Conn) Close() error {
	c.closing.Do(func() {
		close(c.quit) // a handler waiting for an answer would hold the SDK's Close
		if c.cs != nil {
			go func() { _ = c.cs.Close() }()
		}
		if c.proc != nil {
			c.proc.stop()
		}
	})
	return nil
}
