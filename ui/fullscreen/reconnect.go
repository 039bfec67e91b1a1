package fullscreen

import (
	"fmt"
	"net/url"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/ui/internal/opener"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// A remote agent's connection that drops is made again, with backoff,
// and its session taken up (session/resume, else session/load): the
// transcript, the prompt's draft and the open questions stay (the session
// core keeps them detached until the agent asks them again, see
// session.Core.Detach).

// Reconnecting's bounds: the waits before each attempt (the last repeats)
// and how many attempts before elicit gives up and asks.
var (
	reconnectBackoff  = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 15 * time.Second}
	reconnectAttempts = 8
	// reaskWait is how long after the reconnect the kept questions wait
	// for the agent to ask them again.
	reaskWait = 30 * time.Second
)

// reconnecting is the state of a reconnect in progress.
type reconnecting struct {
	active  bool
	attempt int
	gen     int  // the generation of the attempt running
	attach  bool // the next connection takes the kept questions over
}

// reconnectMsg starts attempt n of the reconnect begun at gen.
type reconnectMsg struct{ gen, n int }

// expireMsg closes the kept questions the agent did not ask again.
type expireMsg struct{ gen int }

// lostRemote says whether an exit is a remote connection worth making
// again: lost (not ended by elicit or refused), with a session to resume.
func (m *agentPanel) lostRemote(ev acpconn.AgentExited) bool {
	return ev.Exit.Lost && m.opts.Agent.Remote != nil && !m.quitting && m.session.ID != ""
}

// connectionLost reports the drop and starts reconnecting. A turn that
// was running is lost with the connection: its prompt comes back to the
// input when the input is empty.
func (m *agentPanel) connectionLost(ev acpconn.AgentExited, turnWasRunning bool) tea.Cmd {
	m.tr.notice(fmt.Sprintf("the connection to %s was lost (%s); reconnecting…", m.name, say.ExitWhy(ev)), true)
	if turnWasRunning && m.input.Value() == "" && m.lastPrompt != "" {
		m.input.SetValue(m.lastPrompt)
		m.tr.info("the turn in progress ended with the connection: your prompt is back in the input")
	}
	m.rc = reconnecting{active: true, gen: m.gen}
	return m.nextAttempt()
}

// nextAttempt waits the backoff, then tries again; after the last attempt
// it gives up, closes the kept questions and asks what to do.
func (m *agentPanel) nextAttempt() tea.Cmd {
	m.rc.attempt++
	if m.rc.attempt > reconnectAttempts {
		return m.giveUp(fmt.Sprintf("the connection could not be restored after %d attempts", reconnectAttempts))
	}
	wait := reconnectBackoff[min(m.rc.attempt-1, len(reconnectBackoff)-1)]
	gen, n := m.gen, m.rc.attempt
	return tea.Tick(wait, func(time.Time) tea.Msg { return reconnectMsg{gen: gen, n: n} })
}

// giveUp stops reconnecting.
func (m *agentPanel) giveUp(why string) tea.Cmd {
	m.rc = reconnecting{}
	cmd := m.changes(m.core.Expire(why))
	if !waits[*exitModal](&m.queue) {
		cmd = tea.Batch(cmd, m.push(newExitModal(m.name, why, m.th), false))
	}
	return cmd
}

func (m *agentPanel) onReconnect(msg reconnectMsg) tea.Cmd {
	if !m.rc.active || msg.gen != m.gen || msg.n != m.rc.attempt || m.connState != connGone {
		return nil // the user restarted or quit meanwhile
	}
	m.rc.attach = true
	// The session again on the new connection: session/resume when the
	// agent can (no replay: the transcript has it), else session/load; a
	// new one when it cannot, or no longer has the session.
	cmd := m.reconnectTo(opener.Target{Resume: true, ID: m.session.ID, NewIfGone: true},
		fmt.Sprintf("reconnecting to %s (attempt %d of %d)…", m.name, msg.n, reconnectAttempts))
	m.rc.gen = m.gen
	return cmd
}

// reconnected handles the outcome of an attempt: a failed one here
// (handled), a successful one as any start, then after (which closes the
// kept questions that will not be asked again, or starts their wait).
func (m *agentPanel) reconnected(msg connectedMsg) (cmd tea.Cmd, handled bool, after func() tea.Cmd) {
	if !m.rc.active || msg.gen != m.rc.gen {
		return nil, false, nil
	}
	if msg.err != nil && !acpconn.IsAuthError(msg.err) && !acpconn.IsAuthRequired(msg.err) {
		m.connState = connGone
		m.rc.attach = false
		m.tr.notice("reconnecting failed: "+sanitize.Text(msg.err.Error()), false)
		if msg.conn != nil {
			return tea.Batch(closeConn(msg.conn), m.nextAttempt()), true, nil
		}
		return m.nextAttempt(), true, nil
	}
	m.rc = reconnecting{}
	return nil, false, func() tea.Cmd {
		switch {
		case msg.err != nil: // refused: no more attempts; the start's own path said why
			return m.changes(m.core.Expire("the agent refused the new connection"))
		case msg.res.Fresh != "": // a new session: nothing will be asked again
			return m.changes(m.core.Expire("the session could not be taken up again"))
		}
		gen := m.gen
		return tea.Tick(reaskWait, func(time.Time) tea.Msg { return expireMsg{gen: gen} })
	}
}

func (m *agentPanel) onExpire(msg expireMsg) tea.Cmd {
	if msg.gen != m.gen || !m.core.Detached() {
		return nil
	}
	return m.changes(m.core.Expire(fmt.Sprintf("the agent did not ask it again within %s of the reconnect", reaskWait)))
}

// remoteLabel names a remote agent before it says its name: its host.
func remoteLabel(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Hostname() != "" {
		return sanitize.Line(u.Hostname())
	}
	return "remote agent"
}
