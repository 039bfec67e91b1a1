package fullscreen

import (
	"context"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
)

// eventsMsg carries a batch of agent events, in order.
type eventsMsg struct {
	conn   *acpconn.Conn
	events []acpconn.Event
}

// flushMsg ends a streaming flush interval.
type flushMsg struct{}

// quietMsg comes once the agent may have been quiet for busyFor.
type quietMsg struct{}

func quietLater(d time.Duration) tea.Cmd {
	return tea.Tick(max(d, 10*time.Millisecond), func(time.Time) tea.Msg { return quietMsg{} })
}

// cmdErrMsg reports a failed command that talked to the agent.
type cmdErrMsg struct {
	what string
	err  error
}

// closedMsg says the agent was shut down and the program can quit.
type closedMsg struct{}

// flushEvery is the longest a streamed message waits to be redrawn
// (about 30 frames a second).
const flushEvery = 33 * time.Millisecond

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

func flushLater() tea.Cmd {
	return tea.Tick(flushEvery, func(time.Time) tea.Msg { return flushMsg{} })
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

// preparedMsg carries a question's hooks and history, read off the loop.
type preparedMsg struct {
	q    *question.Question
	prep session.Prep
}

// afterMsg carries an answer that went through the ElicitationResult hooks.
type afterMsg struct {
	p     session.Pending
	out   question.Outcome
	notes []session.Note
}

func prepare(c *session.Core, q *question.Question) tea.Cmd {
	return func() tea.Msg {
		return preparedMsg{q: q, prep: c.Prepare(context.Background(), q)}
	}
}

func afterHooks(c *session.Core, p session.Pending) tea.Cmd {
	return func() tea.Msg {
		out, notes := c.AfterHooks(context.Background(), p)
		return afterMsg{p: p, out: out, notes: notes}
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
