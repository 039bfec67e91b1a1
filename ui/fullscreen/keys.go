package fullscreen

import (
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/opener"
	"github.com/elicit-dev/elicit/urlconsent"
)

// onKey handles a key press. The front modal gets it when the arbiter
// says so; otherwise global keys, then the flows panel or the prompt.
func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, m.keys.Cancel) {
		return m.ctrlC()
	}
	if key.Matches(k, m.keys.Suspend) { // anywhere: the prompt, a dialog
		return m.suspend()
	}
	m.armed = armed{}
	if f := m.queue.front(); f != nil {
		taken, consumed, cmd := m.arb.Take(k)
		if consumed {
			return cmd
		}
		if taken {
			if dock, tick := m.arb.Unused(k, f.keys()); dock {
				return tea.Batch(cmd, tick, m.promptKey(k))
			}
			return tea.Batch(cmd, m.toModal(f, k))
		}
		if cmd != nil {
			return tea.Batch(cmd, m.promptKey(k))
		}
	}
	switch {
	case key.Matches(k, m.keys.PageUp):
		m.scroll += max(1, m.transcriptHeight()-2)
		return nil
	case key.Matches(k, m.keys.PageDown):
		m.scroll = max(0, m.scroll-max(1, m.transcriptHeight()-2))
		return nil
	case key.Matches(k, m.keys.Thoughts):
		m.tr.showThoughts = !m.tr.showThoughts
		for _, it := range m.tr.items {
			if it.kind == kindThought {
				it.dirty = true
			}
		}
		return nil
	case key.Matches(k, m.keys.Help):
		return m.push(newHelpModal(m.keys, m.th), true)
	case m.queue.front() != nil:
		// A question is docked: every other key is typing.
		return m.promptKey(k)
	case key.Matches(k, m.keys.Flows):
		m.showFlows = !m.showFlows && len(m.core.Flows()) > 0
		return ageTick()
	case key.Matches(k, m.keys.Restart):
		return m.sessionsKey()
	case key.Matches(k, m.keys.Settings) && m.connState == connReady:
		return m.push(newSettingsModal(m.session, m.core.Paused(), m.th), true)
	}
	if m.showFlows {
		return m.flowKey(k)
	}
	return m.promptKey(k)
}

// promptKey handles a key for the prompt.
func (m *Model) promptKey(k tea.KeyPressMsg) tea.Cmd {
	m.arb.Typed()
	switch {
	case key.Matches(k, m.keys.Send):
		if f := m.queue.front(); f != nil {
			// Not sent while a question waits; the notice is said once
			// per question.
			if m.waitNoticed != f {
				m.waitNoticed = f
				m.tr.notice("a question is waiting: tab answers it first (your prompt is kept)", false)
			}
			return nil
		}
		return m.send()
	case key.Matches(k, m.keys.Newline):
		m.input.InsertString("\n")
		return nil
	case key.Matches(k, m.keys.Mode):
		return m.cycleMode()
	case key.Matches(k, m.keys.Complete):
		if m.completeCommand() {
			return nil
		}
	case key.Matches(k, m.keys.History):
		if m.slashKey(k) || m.historyKey(k) {
			return nil
		}
	case key.Matches(k, m.keys.Bottom):
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
	return m.reconnectTo(opener.Target{}, "restarting the agent (a new session)…")
}

// send starts a prompt turn with the prompt's text.
func (m *Model) send() tea.Cmd {
	text := strings.TrimSpace(m.input.Value())
	if text == "" {
		return nil
	}
	if cmd, ok := m.localCommand(text); ok {
		m.input.Reset()
		m.hist.add(text)
		return cmd
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
	m.lastPrompt = text
	m.tr.user(text)
	m.tr.newTurn()
	m.core.Prompted(text)
	m.turn = turnRunning
	m.turnStarted = m.now()
	return startPrompt(m.conn, text)
}

// agentAct acts on what one of the agent's dialogs decided.
func (m *Model) agentAct(a action) tea.Cmd {
	switch a := a.(type) {
	case signInAct:
		return m.signIn(a.method)
	case signInRetryAct:
		return m.reconnectTo(m.afterSignIn(false), "starting the agent again…")
	case signInDismissAct:
		return m.signInDismissed(a.quits)
	case secretAct:
		return m.secretDone(a.method, a.values)
	case runLoginAct:
		return m.runLogin(a.method, a.line)
	case backAct:
		return m.offerSignIn(nil)
	case newSessionAct, resumeAct:
		return m.pickedSession(a)
	case restartAct:
		return m.restartAgent()
	case lookAct:
		m.tr.info("ctrl+r restarts the agent; ctrl+c twice quits")
	case setting:
		return m.applySetting(a)
	case retryAct:
		if m.turn == turnIdle && m.connState == connReady {
			return m.prompt(a.prompt)
		}
	}
	return nil
}

// openedMsg reports the browser hand-off of a consented URL.
type openedMsg struct {
	md  *urlModal
	err error
}

func openURL(o urlconsent.Opener, md *urlModal) tea.Cmd {
	u := md.consent.URL()
	return func() tea.Msg { return openedMsg{md: md, err: o.Open(u)} }
}

// opened answers the agent once its URL is open; if the browser could not
// be started, the question comes back with the reason.
func (m *Model) opened(msg openedMsg) tea.Cmd {
	md := msg.md
	if msg.err != nil {
		// Nothing was opened: the agent hears nothing yet, and the screen
		// comes back with the reason, a copy key, the QR code over SSH, and
		// "I opened it myself".
		remote := errors.Is(msg.err, urlconsent.ErrRemote)
		if !remote {
			m.tr.notice("could not open the browser: "+sanitize.Text(msg.err.Error()), true)
		}
		md.consent.OpenFailed(msg.err.Error(), remote)
		return m.push(md, true)
	}
	if md.reopen {
		m.tr.info("opened " + md.q.Report.Site() + " again")
		return nil
	}
	return m.changes(m.core.Answer(md.q, question.Outcome{Action: question.Accept}))
}

func orID(tc acpconn.ToolCall) string {
	if tc.Title != "" {
		return tc.Title
	}
	return sanitize.ID(tc.ID)
}

// armed is a Ctrl+C that waits for a second press to do what it said.
type armed struct {
	what string // "quit" or "clear"
	at   time.Time
}

// confirmWindow is how soon the second Ctrl+C must follow the first.
const confirmWindow = 1500 * time.Millisecond

// ctrlC cancels a running turn (or a focused question, as Esc would);
// otherwise it needs a second press to clear a draft (kept in history) or
// to quit, and it never quits past a draft or a waiting question.
func (m *Model) ctrlC() tea.Cmd {
	now := m.now()
	second := func(what string) bool {
		ok := m.armed.what == what && now.Sub(m.armed.at) < confirmWindow
		m.armed = armed{what, now}
		return ok
	}
	if m.turn == turnRunning && m.conn != nil && m.connState == connReady {
		m.turn = turnCancelling
		m.armed = armed{}
		m.tr.notice("cancelling the turn… (ctrl+c twice more quits)", false)
		return cancelTurn(m.conn)
	}
	if f := m.queue.front(); f != nil && m.arb.Focused {
		// As Esc: a form with typed answers asks before it discards them.
		m.armed = armed{}
		return m.toModal(f, tea.KeyPressMsg{Code: tea.KeyEscape})
	}
	if m.queue.front() != nil {
		m.armed = armed{}
		m.tr.notice("a question is waiting: tab answers it; quit once it is answered", false)
		return nil
	}
	if m.input.Value() != "" {
		if second("clear") {
			m.hist.add(m.input.Value())
			m.input.Reset()
			m.armed = armed{}
			m.tr.info("prompt cleared (↑ brings it back)")
		}
		return nil
	}
	if second("quit") {
		return m.quit()
	}
	return nil
}

func (m *Model) quit() tea.Cmd {
	m.quitting = true
	return shutdown(m.conn)
}
