package fullscreen

import (
	"context"
	"errors"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ui/internal/opener"
)

// attachedMsg says an agent's connection exists: its events can be read
// from now on, before initialize and session/new have answered, so a
// question it asks while it starts is shown at once.
type attachedMsg struct {
	gen  int
	conn *acpconn.Conn
}

// connectedMsg reports the agent started (or not) and what the opener
// did: the session opened, signed in, or why not.
type connectedMsg struct {
	gen  int
	conn *acpconn.Conn
	res  opener.Result
	err  error // the start's error, else res.Err
	auth bool  // the agent asked for sign-in (-32000)
}

// startTimeout bounds starting the agent and opening its session; a
// question the agent asks meanwhile waits for the user within it.
const startTimeout = 5 * time.Minute

// connect starts the agent and opens a session with the opener;
// attachedMsg comes first (as soon as the connection exists), then
// connectedMsg.
func connect(gen int, cfg acpconn.Config, t opener.Target) tea.Cmd {
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
		return open(ctx, gen, c, t)
	}
	return tea.Batch(attach, start)
}

// open runs the opener on c: sign-in when t asks for it, then the session
// t names (none with Keep), its mode and model.
func open(ctx context.Context, gen int, c *acpconn.Conn, t opener.Target) connectedMsg {
	res := opener.Open(ctx, c, t)
	return connectedMsg{gen: gen, conn: c, res: res, err: res.Err, auth: res.AuthRequired()}
}

// reconnect ends the old agent, if it still runs, and connects anew.
func reconnect(gen int, old *acpconn.Conn, cfg acpconn.Config, t opener.Target) tea.Cmd {
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
func authenticate(gen int, c *acpconn.Conn, t opener.Target) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		return open(ctx, gen, c, t)
	}
}

// openOther takes up another session on the running agent (the session
// picker: a past one, or a new one), closing the current one first when
// the agent can.
func openOther(gen int, c *acpconn.Conn, t opener.Target) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		_ = c.CloseSession(ctx) // best effort: the agent keeps it otherwise
		return open(ctx, gen, c, t)
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
