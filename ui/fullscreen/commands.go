package fullscreen

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
)

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

func flushLater() tea.Cmd {
	return tea.Tick(flushEvery, func(time.Time) tea.Msg { return flushMsg{} })
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
