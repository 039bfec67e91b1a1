package fullscreen

import (
	"context"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// eventsMsg carries a batch of agent events, in order.
type eventsMsg struct {
	conn   *acpconn.Conn
	events []acpconn.Event
}

// maxBatch is the most events handled in one Update.
const maxBatch = 512

func agentLabel(argv []string) string {
	if len(argv) == 0 {
		return "agent"
	}
	return sanitize.Line(filepath.Base(argv[0]))
}

// pump waits for the next events and takes as many more as are ready, so
// a fast agent costs one Update per batch rather than per chunk.
func pump(c *acpconn.Conn) tea.Cmd {
	return func() tea.Msg {
		first := <-c.Events()
		evs := []acpconn.Event{first}
		for len(evs) < maxBatch {
			select {
			case ev := <-c.Events():
				evs = append(evs, ev)
			default:
				return eventsMsg{conn: c, events: evs}
			}
		}
		return eventsMsg{conn: c, events: evs}
	}
}

func cancelTurn(c *acpconn.Conn) tea.Cmd {
	return func() tea.Msg {
		if err := c.CancelTurn(); err != nil {
			return cmdErrMsg{"cancel", err}
		}
		return nil
	}
}

func startPrompt(c *acpconn.Conn, text string) tea.Cmd {
	return func() tea.Msg {
		c.StartPrompt(text)
		return nil
	}
}

func setMode(c *acpconn.Conn, id string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := c.SetMode(ctx, id); err != nil {
			return cmdErrMsg{"set mode", err}
		}
		return nil
	}
}

// shutdown closes the session when the agent supports session/close,
// ends the agent's process group, then quits.
func shutdown(c *acpconn.Conn) tea.Cmd {
	return func() tea.Msg {
		if c != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_ = c.CloseSession(ctx)
			cancel()
			c.Close()
		}
		return closedMsg{}
	}
}
