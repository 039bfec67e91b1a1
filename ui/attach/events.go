package attach

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// event applies one event of the connection.
func (m *Model) event(ev ahp.Event) tea.Cmd {
	switch ev := ev.(type) {
	case ahp.Reset:
		m.in = ev.Inputs
		if m.cur != nil {
			e := m.in.Open(m.cur.req.ID)
			if e == nil {
				m.closeCur("the request was closed while the connection was down")
			} else if m.cur.sync != nil {
				for qid, a := range e.Request.Answers {
					m.cur.sync.Remote(qid, &a, "")
				}
			}
		}
		m.status = "connected"
	case ahp.Changed:
		m.in = ev.Inputs
		m.changed(ev)
	case ahp.Rejected:
		m.in = ev.Inputs
		return m.rejected(ev)
	case ahp.Connection:
		if ev.Up {
			m.status = "connected"
			if m.cur != nil && m.cur.sync != nil {
				m.send(m.cur.sync.Changes(true)) // what was typed meanwhile
			}
		} else {
			m.status = "connection lost: reconnecting…"
		}
	case ahp.Problem:
		m.note(ev.Err.Error())
	case ahp.Closed:
		m.closeCur("the connection ended")
		m.note("the connection to the host ended")
		m.done = true
		return nil
	}
	return m.advance()
}

func (m *Model) changed(ev ahp.Changed) {
	who := "the host"
	if ev.Origin != nil {
		who = ev.Origin.ClientID
	}
	switch a := ev.Action.(type) {
	case ahp.InputAnswerChanged:
		if !ev.Mine && m.cur != nil && m.cur.req.ID == a.RequestID && m.cur.sync != nil {
			m.cur.sync.Remote(a.QuestionID, a.Answer, who)
		}
	case ahp.InputCompleted:
		if m.cur == nil || m.cur.req.ID != a.RequestID {
			return
		}
		if ev.Mine {
			m.note(m.cur.answered(a.Response))
			m.cur = nil
			return
		}
		m.closeCur("answered elsewhere: " + string(a.Response) + " (by " + sanitize.Line(who) + ")")
	case ahp.InputRequested:
		if m.cur != nil && m.cur.req.ID == a.Request.ID && !m.cur.sent {
			e := m.in.Open(a.Request.ID)
			if e == nil {
				return
			}
			keep := prefillOf(m.cur)
			q, _ := m.open(e.Request, 1, len(m.in.OpenRequests()), nil)
			if q != nil && q.form != nil {
				for k, v := range keep { // what the user typed stays where its field still is
					if q.sync.Map.QuestionOf(k) != "" && v != nil {
						_ = q.form.SetValue(k, v)
					}
				}
			}
			m.cur = q
			m.note("the host changed the request it asks")
		}
	case ahp.TurnEnded:
		m.closeCur("the turn ended: the agent no longer waits for this answer")
	}
}

// closeCur takes the question off the screen with a reason, keeping what
// the user typed in the log.
func (m *Model) closeCur(reason string) {
	if m.cur == nil {
		return
	}
	text := reason
	if d := m.cur.draft(); d != "" && !m.cur.sent {
		text += "\nwhat you had entered:" + d
	}
	m.note(text)
	m.cur = nil
}

// rejected shows why the host refused an action; a refused completion
// brings the form back with what was entered.
func (m *Model) rejected(ev ahp.Rejected) tea.Cmd {
	m.notice = "the host refused: " + sanitize.Line(ev.Reason)
	c, ok := ev.Action.(ahp.InputCompleted)
	if !ok || m.cur == nil || m.cur.req.ID != c.RequestID || !m.cur.sent {
		return m.advance()
	}
	if strings.Contains(ev.Reason, "already completed") || m.in.Open(c.RequestID) == nil {
		m.closeCur("answered elsewhere first")
		return m.advance()
	}
	prev := m.cur
	q, cmd := m.open(m.in.Open(c.RequestID).Request, 1, len(m.in.OpenRequests()), prefillOf(prev))
	m.cur = q
	return cmd
}

// advance shows the next open request when none is on screen.
func (m *Model) advance() tea.Cmd {
	if m.cur != nil {
		return nil
	}
	open := m.in.OpenRequests()
	if len(open) == 0 {
		return nil
	}
	q, cmd := m.open(open[0], 1, len(open), nil)
	m.cur = q
	if q != nil {
		for _, n := range q.notes {
			m.note(n)
		}
	}
	return cmd
}
