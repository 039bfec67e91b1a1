package attach

import (
	"reflect"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/sanitize"
	qn "github.com/elicit-dev/elicit/question"
)

// The keys attach adds to a form's own (none is a letter alone: a question
// never takes typing for an answer).
const (
	keyTakeTheirs = "ctrl+t" // put another client's held draft in the field
	keySkip       = "ctrl+s" // skip the question the cursor is in
	keyQuit       = "ctrl+c" // with no question open: quit
)

func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	q := m.cur
	if q == nil || q.sent {
		if k.String() == keyQuit || k.String() == "q" && q == nil {
			m.done = true
			return tea.Quit
		}
		return nil
	}
	m.notice = ""
	if q.form != nil {
		switch k.String() {
		case keyTakeTheirs:
			q.sync.TakeTheirs()
			return nil
		case keySkip:
			if s := q.sync.Skip(); s != nil {
				_ = m.o.Conn.Dispatch(*s)
			}
			return nil
		}
	}
	var before map[string]any
	if q.form != nil {
		before = q.form.Draft()
	}
	cmd := q.update(k)
	if q.form != nil && !reflect.DeepEqual(before, q.form.Draft()) {
		q.typed = true // the user's own entry: kept in the log if the form closes from outside
	}
	return tea.Batch(cmd, m.after(q))
}

// after looks at a question after a key: a field left sends its draft at
// once, typing sends after a pause, and a finished form or consent goes
// out.
func (m *Model) after(q *question) tea.Cmd {
	if q.consent != nil {
		act, done := q.consent.Done()
		if !done {
			return nil
		}
		switch {
		case q.consent.OpensBrowser():
			o, u := m.o.Opener, q.consent.URL()
			return func() tea.Msg { return openedMsg{q: q, err: o.Open(u)} }
		case act.Action == qn.Accept: // the user opened it themselves
			m.complete(q, qn.Accept, nil)
			return m.rememberSite(q.consent.Report().Site())
		case act.Action == qn.Decline:
			m.complete(q, qn.Decline, nil)
		default:
			m.complete(q, qn.Cancel, nil)
		}
		return nil
	}
	if out, done := q.form.Done(); done {
		m.send(q.sync.Changes(true))
		switch out.Action {
		case qn.Accept:
			q.content = out.Content
			m.complete(q, qn.Accept, q.sync.Final(out.Content))
			return m.rememberForm(q.schema, out.Content)
		case qn.Decline:
			m.complete(q, qn.Decline, nil)
		default:
			m.complete(q, qn.Cancel, nil)
		}
		return nil
	}
	if f := q.form.Focused(); f != q.focus {
		q.focus = f
		m.send(q.sync.Changes(false)) // the field just left
	}
	m.typing++
	gen := m.typing
	return tea.Tick(m.o.Debounce, func(time.Time) tea.Msg { return typedMsg{gen: gen} })
}

func (m *Model) complete(q *question, r qn.Action, answers map[string]ahp.Answer) {
	q.sent = true
	_ = m.o.Conn.Dispatch(ahp.InputCompleted{RequestID: q.req.ID, Response: r, Answers: answers})
}

// opened answers a URL request once the browser has it; if it could not
// start, the screen comes back with the reason.
func (m *Model) opened(msg openedMsg) tea.Cmd {
	if m.cur != msg.q {
		return nil
	}
	if msg.err != nil {
		m.notice = "could not open the browser: " + sanitize.Line(msg.err.Error())
		msg.q.consent.OpenFailed(msg.err.Error(), false)
		return nil
	}
	m.complete(msg.q, qn.Accept, nil)
	return m.rememberSite(msg.q.consent.Report().Site())
}
