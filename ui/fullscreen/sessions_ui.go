package fullscreen

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/ui/internal/opener"
)

// sessionsModal is the session picker (Ctrl+R): a new session, or one of
// the agent's past sessions in this directory, newest first.
type sessionsModal struct{ choiceModal }

// newSessionAct starts a new session; resumeAct takes up a past one.
type (
	newSessionAct struct{}
	resumeAct     struct{ id, title string }
)

func newSessionsModal(list []acpconn.SessionSummary, current string, gone, canReopen bool, now time.Time, th *theme.Theme) *sessionsModal {
	s := &sessionsModal{choiceModal{title: "Sessions", th: th}}
	add := func(label string, v action) {
		k := ""
		if len(s.choices) < len(choiceKeys) {
			k = string(choiceKeys[len(s.choices)])
		}
		s.choices = append(s.choices, choice{k, label, v})
	}
	newLabel := "a new session"
	if gone {
		newLabel = "restart the agent with a new session"
	}
	add(newLabel, newSessionAct{})
	switch {
	case gone && current != "" && canReopen:
		add("restart the agent and resume this session ("+sanitize.ID(current)+")", resumeAct{id: current})
		s.body = "The agent stopped. Start it again:"
	case gone:
		s.body = "The agent stopped. Start it again:"
	case len(list) == 0:
		s.body = "The agent lists no past session in this directory."
	default:
		s.body = "Start a new session or take up a past one (its history is replayed when the agent can):"
	}
	for _, ss := range list {
		title := ss.Title
		if title == "" {
			title = "(untitled)"
		}
		label := fmt.Sprintf("%s  %s", sanitize.Summary(title, 50), sanitize.Line(ago(now, ss.Updated)))
		label += "  " + sanitize.ID(ss.ID)
		add(label+mark(ss.ID == current), resumeAct{id: ss.ID, title: title})
	}
	return s
}

// ago says how long ago t was, in a word or two.
func ago(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return t.Local().Format("2006-01-02")
}

// sessionsKey handles Ctrl+R: the picker, after the agent's list when it
// can list its sessions.
func (m *agentPanel) sessionsKey() tea.Cmd {
	switch m.connState {
	case connReady:
		if m.conn.SessionCaps().List {
			m.tr.info("asking the agent for its sessions…")
			return listSessions(m.conn)
		}
		return m.push(newSessionsModal(nil, m.session.ID, false, false, m.now(), m.th), true)
	case connGone:
		canReopen := m.inited != nil && m.inited.SessionCaps().CanReopen()
		return m.push(newSessionsModal(nil, m.session.ID, true, canReopen, m.now(), m.th), true)
	}
	return nil
}

func (m *agentPanel) onSessions(msg sessionsMsg) tea.Cmd {
	if msg.err != nil {
		m.tr.notice("could not list the agent's sessions: "+sanitize.Text(msg.err.Error()), true)
	}
	if m.connState != connReady {
		return nil
	}
	return m.push(newSessionsModal(msg.list, m.session.ID, false, false, m.now(), m.th), true)
}

// pickedSession acts on the picker: on a running agent the session opens
// on the same connection (the current one closed when the agent can);
// after the agent stopped, it starts again first.
func (m *agentPanel) pickedSession(pick action) tea.Cmd {
	switch p := pick.(type) {
	case newSessionAct:
		if m.connState == connReady {
			m.connState = connStarting
			m.last = opener.Target{}
			m.tr.info("starting a new session…")
			return openOther(m.gen, m.conn, m.withStart(m.last))
		}
		return m.reconnectTo(opener.Target{}, "restarting the agent (a new session)…")
	case resumeAct:
		if p.id == m.session.ID && m.connState == connReady {
			return nil
		}
		t := opener.Target{Resume: true, ID: p.id}
		if m.connState == connReady {
			m.connState = connStarting
			m.last = t
			m.tr.info("resuming " + sanitize.Summary(p.title, 60) + "…")
			return openOther(m.gen, m.conn, m.withStart(t))
		}
		return m.reconnectTo(t, "restarting the agent to resume "+sanitize.ID(p.id)+"…")
	}
	return nil
}
