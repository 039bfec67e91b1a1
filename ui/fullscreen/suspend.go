package fullscreen

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/question"
)

// Ctrl+Z suspends elicit as a shell's job control expects: bubbletea
// restores the terminal and stops the process (tea.Suspend: SIGTSTP to
// elicit's process group; the agent runs in a group of its own and goes
// on), and `fg` continues it: the terminal is set up again, the next frame
// is drawn whole (tea.ResumeMsg). While elicit is stopped the agent's
// messages wait in the pipe, so what it asked meanwhile arrives in a burst
// right after; those questions are announced on return.

// resumeWindow is how long after `fg` a question counts as one that
// arrived while elicit was suspended (it was waiting in the pipe).
const resumeWindow = 2 * time.Second

// suspend answers Ctrl+Z.
func (m *Model) suspend() tea.Cmd {
	m.suspended = true
	return tea.Suspend
}

// resumed is the return from `fg`: the questions waiting are named again.
// (The agent's messages read after fg may be handled before this.)
func (m *Model) resumed() tea.Cmd {
	m.suspended, m.resumedAt = false, m.now()
	if n := m.pendingRequests(); n > 0 {
		m.tr.info("resumed; " + questionsWaiting(n))
	} else {
		m.tr.info("resumed")
	}
	return nil
}

func questionsWaiting(n int) string {
	if n == 1 {
		return "a question waits for you"
	}
	return "questions wait for you"
}

// askedWhileAway announces a question that arrived while elicit was
// suspended: a note in the transcript and the bell, whatever the focus.
func (m *Model) askedWhileAway(q *question.Question) tea.Cmd {
	if !m.suspended && (m.resumedAt.IsZero() || m.now().Sub(m.resumedAt) > resumeWindow) {
		return nil
	}
	m.tr.notice(m.whoOf(q)+" asked a "+q.Kind.String()+" question while elicit was suspended", false)
	if m.opts.Notify == NotifyNever {
		return nil
	}
	return tea.Raw("\a")
}
