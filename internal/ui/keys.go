package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/forms"
	"github.com/elicit-dev/elicit/internal/urlconsent"
)

// quitWindow is how soon a second Ctrl+C must follow the first to quit
// while a turn is being cancelled.
const quitWindow = 2 * time.Second

// onKey handles a key press: global keys first, then the front modal, the
// flows panel, or the prompt.
func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "ctrl+c":
		return m.ctrlC()
	case "pgup":
		m.scroll += max(1, m.transcriptHeight()-2)
		return nil
	case "pgdown":
		m.scroll = max(0, m.scroll-max(1, m.transcriptHeight()-2))
		return nil
	case "ctrl+t":
		m.tr.showThoughts = !m.tr.showThoughts
		for _, it := range m.tr.items {
			if it.kind == kindThought {
				it.dirty = true
			}
		}
		return nil
	case "ctrl+p":
		if m.queue.front() == nil {
			m.showFlows = !m.showFlows && len(m.flows) > 0
			return ageTick()
		}
	case "ctrl+r":
		if m.connState == connGone && m.queue.front() == nil {
			return m.restartAgent()
		}
	case "ctrl+o":
		if m.queue.front() == nil && m.connState == connReady {
			m.queue.push(newSettingsModal(m.session, m.th, m.now))
			return nil
		}
	case "ctrl+e":
		if m.conn != nil {
			p := !m.conn.ElicitationsPaused()
			m.conn.SetElicitationsPaused(p)
			if p {
				m.tr.notice("elicitations from this agent are paused: each is declined automatically (ctrl+e resumes)", false)
			} else {
				m.tr.info("elicitations from this agent are resumed")
			}
		}
		return nil
	}
	if f := m.queue.front(); f != nil {
		cmd := f.update(k)
		return tea.Batch(cmd, m.resolve(f))
	}
	if m.showFlows {
		return m.flowKey(k)
	}
	switch k.String() {
	case "enter":
		return m.send()
	case "shift+enter", "ctrl+j", "alt+enter":
		m.input.InsertString("\n")
		return nil
	case "shift+tab":
		return m.cycleMode()
	case "tab":
		if m.completeCommand() {
			return nil
		}
	case "up", "down":
		if m.historyKey(k) {
			return nil
		}
	case "end":
		if m.input.Value() == "" {
			m.scroll = 0
			return nil
		}
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return cmd
}

// restartAgent ends the old agent, if it still runs, and starts a new one
// with a new session; the transcript stays.
func (m *Model) restartAgent() tea.Cmd {
	old := m.conn
	m.conn, m.exited = nil, nil
	m.connState = connStarting
	m.tr.info("restarting the agent (a new session)…")
	return restart(old, m.opts.Agent)
}

// ctrlC cancels a running turn, quits on an idle prompt, and quits on a
// second press while a turn is being cancelled.
func (m *Model) ctrlC() tea.Cmd {
	now := m.now()
	second := now.Sub(m.lastCtrlC) < quitWindow
	m.lastCtrlC = now
	if m.turn == turnRunning && m.conn != nil && m.connState == connReady {
		m.turn = turnCancelling
		m.tr.notice("cancelling the turn… (ctrl+c again quits)", false)
		return cancelTurn(m.conn)
	}
	if m.turn == turnCancelling && !second {
		return nil
	}
	if m.input.Value() != "" && !second && m.turn == turnIdle {
		m.input.Reset()
		return nil
	}
	return m.quit()
}

func (m *Model) quit() tea.Cmd {
	m.quitting = true
	return shutdown(m.conn)
}

// send starts a prompt turn with the prompt's text.
func (m *Model) send() tea.Cmd {
	text := strings.TrimSpace(m.input.Value())
	if text == "" {
		return nil
	}
	switch {
	case m.connState == connGone:
		m.tr.notice("there is no session: ctrl+r restarts the agent", false)
		return nil
	case m.connState != connReady:
		m.tr.notice("the agent is not connected yet", false)
		return nil
	case m.turn != turnIdle:
		m.tr.notice("a turn is running; ctrl+c cancels it", false)
		return nil
	}
	m.input.Reset()
	m.hist.add(text)
	m.scroll = 0
	return m.prompt(text)
}

func (m *Model) prompt(text string) tea.Cmd {
	m.tr.user(text)
	m.tr.newTurn()
	m.lastPrompt = text
	m.turn = turnRunning
	m.turnStarted = m.now()
	return tea.Batch(startPrompt(m.conn, text), m.spin.Tick)
}

// cycleMode switches to the agent's next session mode.
func (m *Model) cycleMode() tea.Cmd {
	modes := m.session.Modes
	if len(modes) < 2 || m.conn == nil {
		return nil
	}
	next := modes[0].ID
	for i, md := range modes {
		if md.ID == m.session.Mode {
			next = modes[(i+1)%len(modes)].ID
		}
	}
	m.session.Mode = next
	return setMode(m.conn, next)
}

// resolve acts on a modal the user has answered: it replies to the agent
// and takes the modal out of the queue.
func (m *Model) resolve(md modal) tea.Cmd {
	if !md.done() {
		return nil
	}
	m.queue.remove(md)
	switch md := md.(type) {
	case *permModal:
		m.conn.RespondPermission(md.req.ID, md.picked)
		name := "cancelled"
		for _, o := range md.req.Options {
			if o.ID == md.picked {
				name = o.Name
			}
		}
		m.tr.info("permission for " + orID(md.req.ToolCall) + ": " + name)
	case *formModal:
		out, _ := md.form.Done()
		m.conn.RespondElicitation(md.req.ID, string(out.Action), out.Content)
		if out.Action == forms.Cancel && md.draft() != "" {
			m.tr.notice("form cancelled; what you had entered:"+md.draft(), false)
		}
	case *urlModal:
		return m.resolveURL(md)
	case *authModal:
		if md.picked == "" {
			return m.quit()
		}
		return authenticate(m.conn, md.picked)
	case *exitModal:
		switch md.picked {
		case "restart":
			return m.restartAgent()
		case "quit":
			return m.quit()
		}
		m.tr.info("ctrl+r restarts the agent; ctrl+c quits")
	case *settingsModal:
		if md.picked != "" {
			return m.applySetting(md.picked)
		}
	case *retryModal:
		if md.picked == "retry" && m.turn == turnIdle && m.connState == connReady {
			return m.prompt(md.prompt)
		}
	}
	return nil
}

func orID(tc acpconn.ToolCall) string {
	if tc.Title != "" {
		return tc.Title
	}
	return tc.ID
}

func (m *Model) resolveURL(md *urlModal) tea.Cmd {
	act, _ := md.consent.Done()
	action := "cancel"
	switch act {
	case urlconsent.Open:
		action = "accept"
	case urlconsent.Decline:
		action = "decline"
	}
	// A legacy -32042 flow has no pending request: this is then a no-op.
	m.conn.RespondElicitation(md.req.ID, action, nil)
	if act == urlconsent.Open {
		m.addFlow(md.req)
		return urlconsent.OpenCmd(m.opts.Opener, md.req.Report.URL)
	}
	if m.legacyWaiting[md.req.ElicitationID] {
		m.legacyWaiting = nil
		m.tr.notice("the prompt that needed this URL will not be retried", false)
	}
	return nil
}
