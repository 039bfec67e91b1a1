// Package demoagent is the built-in ACP agent that elicit runs when no agent is named:
// it streams markdown, shows tool calls, plans and permissions, and asks every kind of elicitation.
//
// It speaks JSON-RPC 2.0 over its stdin and stdout; elicit starts it as a hidden sub-command:
//
//	if err := demoagent.Run(ctx, os.Stdin, os.Stdout); err != nil {
//		fmt.Fprintln(os.Stderr, err)
//		os.Exit(1)
//	}
package demoagent

import (
	"context"
	"io"
	"log/slog"
	"os"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/safefile"
)

// LogEnv names the environment variable that, when set to a file path, makes the agent append
// its protocol diagnostics to that file. Without it the SDK's logger is discarded, because
// anything on stderr would end up on the client's screen.
const LogEnv = "ELICIT_DEMO_LOG"

// Agent identity reported in the initialize response.
const (
	agentName    = "elicit-demo"
	agentTitle   = "Demo agent"
	agentVersion = "0.1"
)

// Options changes how the agent touches its process. The zero value is what the elicit binary uses.
type Options struct {
	// Stderr receives the line written before /exit ends the process; nil means os.Stderr.
	Stderr io.Writer
	// Exit ends the process for /exit; nil means os.Exit. Tests replace it to observe the code.
	Exit func(code int)
}

// Run serves the ACP agent side on in (the client's requests) and out (the agent's messages) until
// the client disconnects, which is a normal end and returns nil, or ctx is done, which returns ctx's error.
func Run(ctx context.Context, in io.Reader, out io.Writer) error {
	return RunWith(ctx, in, out, Options{})
}

// RunWith is Run with explicit Options. When ctx ends before the client disconnects, the
// connection's reader stays blocked on in until in is closed.
func RunWith(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	if opts.Exit == nil {
		opts.Exit = os.Exit
	}
	logger, closeLog := newLogger()
	defer closeLog()

	a := &agent{opts: opts, log: logger, sessions: make(map[acp.SessionId]*session)}
	// The SDK starts reading as soon as the connection exists; the gate holds the first read
	// until the logger and a.conn are set, so no handler or log call can race with them.
	gate := make(chan struct{})
	conn := acp.NewConnection(a.handle, out, &gatedReader{r: in, open: gate})
	conn.SetLogger(logger)
	a.conn = conn
	close(gate)
	defer a.shutdown()

	select {
	case <-conn.Done():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// agent holds the connection-wide state: the client's capabilities, the sessions and the
// loopback server of the URL flows.
type agent struct {
	opts Options
	log  *slog.Logger
	conn *acp.Connection

	mu       sync.Mutex
	caps     capabilities
	sessions map[acp.SessionId]*session
	urls     *urlServer
	approved map[string]bool // elicitation ids whose page was approved
}

// capabilities is what the client declared in initialize and the agent relies on.
type capabilities struct {
	form bool
	url  bool
}

func (a *agent) clientCaps() capabilities {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.caps
}

func (a *agent) session(id acp.SessionId) *session {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sessions[id]
}

// shutdown cancels every running turn and stops the URL server.
func (a *agent) shutdown() {
	a.mu.Lock()
	sessions := make([]*session, 0, len(a.sessions))
	for _, s := range a.sessions {
		sessions = append(sessions, s)
	}
	urls := a.urls
	a.mu.Unlock()
	for _, s := range sessions {
		s.cancelTurn()
	}
	if urls != nil {
		urls.close()
	}
}

// gatedReader blocks every Read until open is closed.
type gatedReader struct {
	r    io.Reader
	open chan struct{}
}

func (g *gatedReader) Read(p []byte) (int, error) {
	<-g.open
	return g.r.Read(p)
}

// newLogger returns the logger for the SDK and the agent: a text log appended to the file named by
// LogEnv, or a discarding logger.
func newLogger() (*slog.Logger, func()) {
	path := os.Getenv(LogEnv)
	if path == "" {
		return slog.New(slog.DiscardHandler), func() {}
	}
	f, err := safefile.Append(path, 0o600) // never through a symbolic link
	if err != nil {
		return slog.New(slog.DiscardHandler), func() {}
	}
	h := slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug})
	return slog.New(h), func() { _ = f.Close() }
}
