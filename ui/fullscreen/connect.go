package fullscreen

import (
	"context"
	"errors"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
)

// target says which session to open once the agent runs, and what to do
// first.
type target struct {
	resume bool   // take up a past session (session/load or /resume)
	id     string // with resume: that session; "" = the most recent
	keep   bool   // open none: the session stays (sign-in during a session)
	// authID is a method to authenticate with before the session opens
	// (an env_var method, once the agent runs with its variables).
	authID string
	// key is an api-key method's key, sent only in authenticate's _meta.
	key string
	// reattach takes up session id on a new connection after a lost one
	// (reconnect.go): resumed without a replay when the agent can.
	reattach bool
}

// attachedMsg says an agent's connection exists: its events can be read
// from now on, before initialize and session/new have answered, so a
// question it asks while it starts is shown at once.
type attachedMsg struct {
	gen  int
	conn *acpconn.Conn
}

// connectedMsg reports the agent started (or not) and its session opened.
type connectedMsg struct {
	gen      int
	conn     *acpconn.Conn
	session  acpconn.SessionState
	replayed bool   // the session was loaded and its history replayed
	fresh    string // why a new session was made when one was to be resumed
	err      error
	auth     bool // the agent asked for sign-in (-32000)
}

// startTimeout bounds starting the agent and opening its session; a
// question the agent asks meanwhile waits for the user within it.
const startTimeout = 5 * time.Minute

// connect starts the agent and opens a session; attachedMsg comes first
// (as soon as the connection exists), then connectedMsg.
func connect(gen int, cfg acpconn.Config, t target) tea.Cmd {
	ready := make(chan *acpconn.Conn, 1)
	var once sync.Once
	closeReady := func() { once.Do(func() { close(ready) }) }
	cfg.OnStart = func(c *acpconn.Conn) { ready <- c }
	attach := func() tea.Msg {
		c, ok := <-ready
		if !ok {
			return nil
		}
		return attachedMsg{gen: gen, conn: c}
	}
	start := func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		c, err := acpconn.Start(ctx, cfg)
		closeReady()
		if err != nil {
			return connectedMsg{gen: gen, err: err, auth: acpconn.IsAuthRequired(err)}
		}
		msg := open(ctx, c, t)
		msg.gen = gen
		return msg
	}
	return tea.Batch(attach, start)
}

// open authenticates when asked to, then opens the target session.
func open(ctx context.Context, c *acpconn.Conn, t target) connectedMsg {
	fail := func(err error) connectedMsg {
		return connectedMsg{conn: c, err: err, auth: acpconn.IsAuthRequired(err)}
	}
	if t.authID != "" {
		var err error
		if t.key != "" {
			err = c.AuthenticateKey(ctx, t.authID, t.key)
		} else {
			err = c.Authenticate(ctx, t.authID)
		}
		if err != nil {
			return fail(err)
		}
	}
	if t.keep {
		return connectedMsg{conn: c}
	}
	if t.reattach {
		return reattachSession(ctx, c, t.id)
	}
	if t.resume {
		return resumeSession(ctx, c, t.id)
	}
	st, err := c.NewSession(ctx)
	if err != nil {
		return fail(err)
	}
	return connectedMsg{conn: c, session: st}
}

// resumeSession takes up session id ("" = the most recent in this
// directory), replaying its history when the agent can; with no past
// session it starts a new one and says why.
func resumeSession(ctx context.Context, c *acpconn.Conn, id string) connectedMsg {
	caps := c.SessionCaps()
	fresh := ""
	switch {
	case !caps.CanReopen():
		fresh = "the agent cannot resume sessions"
	case id == "" && !caps.List:
		fresh = "the agent cannot list its sessions (give an id to --resume)"
	case id == "":
		list, err := c.ListSessions(ctx)
		if err != nil {
			return connectedMsg{conn: c, err: err, auth: acpconn.IsAuthRequired(err)}
		}
		if len(list) == 0 {
			fresh = "no past session in this directory"
		} else {
			id = list[0].ID
		}
	}
	if fresh != "" {
		st, err := c.NewSession(ctx)
		return connectedMsg{conn: c, session: st, err: err, auth: acpconn.IsAuthRequired(err), fresh: fresh}
	}
	st, replayed, err := c.OpenSession(ctx, id, true)
	return connectedMsg{conn: c, session: st, replayed: replayed, err: err, auth: acpconn.IsAuthRequired(err)}
}

// reconnect ends the old agent, if it still runs, and connects anew.
func reconnect(gen int, old *acpconn.Conn, cfg acpconn.Config, t target) tea.Cmd {
	next := connect(gen, cfg, t)
	return func() tea.Msg {
		if old != nil {
			old.Close()
		}
		return next() // a batch: the attach and the start
	}
}

// authenticate runs a sign-in method on the running agent (an agent-kind
// or api-key method), then opens the target session.
func authenticate(gen int, c *acpconn.Conn, t target) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		msg := open(ctx, c, t)
		msg.gen = gen
		return msg
	}
}

// openPast takes up another past session on the running agent (the
// session picker), closing the current one first when the agent can.
func openPast(gen int, c *acpconn.Conn, id string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		_ = c.CloseSession(ctx) // best effort: the agent keeps it otherwise
		msg := resumeSession(ctx, c, id)
		msg.gen = gen
		return msg
	}
}

// sessionsMsg carries the agent's past sessions for the picker.
type sessionsMsg struct {
	list []acpconn.SessionSummary
	err  error
}

func listSessions(c *acpconn.Conn) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		list, err := c.ListSessions(ctx)
		if errors.Is(err, acpconn.ErrNotSupported) {
			err = nil
		}
		return sessionsMsg{list: list, err: err}
	}
}
