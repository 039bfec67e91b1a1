package fullscreen

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ui/internal/opener"
)

// agentKeys are the prompt's keys and the session's own, as data.
type agentKeys struct {
	Send, Newline, History, Complete, Mode key.Binding
	Bottom, Settings, Restart              key.Binding
}

var agentKeyMap = agentKeys{
	Send:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
	Newline:  key.NewBinding(key.WithKeys("shift+enter", "ctrl+j", "alt+enter"), key.WithHelp("shift+enter", "new line")),
	History:  key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "earlier prompts")),
	Complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete a command")),
	Mode:     key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "next mode")),
	Bottom:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "back to the bottom (empty prompt)")),
	Settings: key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "settings")),
	Restart:  key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "sessions: new, resume a past one, restart")),
}

// help: the status bar's keys, and the keys screen's columns.
func (m *agentPanel) help() (short []key.Binding, full [][]key.Binding) {
	k, a := m.keys, agentKeyMap
	return []key.Binding{k.Cancel, a.Settings, k.Flows, k.Help}, [][]key.Binding{
		{a.Send, a.Newline, a.History, a.Complete, a.Mode},
		{k.Answer, k.PageUp, k.PageDown, a.Bottom, k.Thoughts},
		{k.Flows, a.Settings, a.Restart, k.Cancel, k.Suspend, k.Help},
	}
}

// global takes the session's own keys: ctrl+r (the sessions) and ctrl+o
// (its settings, once it runs).
func (m *agentPanel) global(k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(k, agentKeyMap.Restart):
		return m.sessionsKey(), true
	case key.Matches(k, agentKeyMap.Settings) && m.connState == connReady:
		return m.push(newSettingsModal(m.session, m.core.Paused(), m.th).withMCP(m.conn.MCPServers()), true), true
	}
	return nil, false
}

// typing is the prompt's.
func (m *agentPanel) typing(k tea.KeyPressMsg) tea.Cmd { return m.promptKey(k) }

// stop cancels a running turn.
func (m *agentPanel) stop() (tea.Cmd, bool) {
	if m.turn != turnRunning || m.conn == nil || m.connState != connReady {
		return nil, false
	}
	m.turn = turnCancelling
	m.tr.notice("cancelling the turn… (ctrl+c twice more quits)", false)
	return cancelTurn(m.conn), true
}

// back empties a prompt that holds text on a second Ctrl+C (it stays in
// the history).
func (m *agentPanel) back(second func(string) bool) (tea.Cmd, bool) {
	if m.input.Value() == "" {
		return nil, false
	}
	if second("clear") {
		m.hist.add(m.input.Value())
		m.input.Reset()
		m.armed = armed{}
		m.tr.info("prompt cleared (↑ brings it back)")
	}
	return nil, true
}

// retry sends again (auto) or offers to send again a prompt that needed
// URL flows.
func (m *agentPanel) retry(prompt string, auto bool) tea.Cmd {
	if auto {
		return m.sendAgain(prompt)
	}
	return m.push(newRetryModal(prompt, m.th), false)
}

// sendAgain sends a prompt whose URL flows are complete: now when the
// agent is idle, else once the running turn ends (the -32042 turn's own
// end can come just after its flows completed, and the user may have
// sent another prompt meanwhile). Without a connection it goes back to
// the input: a retry is never silently dropped.
func (m *agentPanel) sendAgain(prompt string) tea.Cmd {
	switch {
	case m.connState != connReady:
		m.keepInInput(prompt, "not sent again: the agent is not connected")
		return nil
	case m.turn != turnIdle:
		m.retryNext = prompt
		return nil
	}
	return m.prompt(prompt)
}

// keepInInput puts a prompt that could not be sent back in an empty
// input, saying why; the user's own text in the input is never replaced
// (the prompt is in the history either way).
func (m *agentPanel) keepInInput(prompt, why string) {
	m.hist.add(prompt)
	if m.input.Value() == "" {
		m.input.SetValue(prompt)
		m.tr.info(why + ": your prompt is back in the input")
		return
	}
	m.tr.info(why + ": your prompt is in the history (↑)")
}

// promptKey handles a key for the prompt.
func (m *agentPanel) promptKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, agentKeyMap.Send):
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
	case key.Matches(k, agentKeyMap.Newline):
		m.input.InsertString("\n")
		return nil
	case key.Matches(k, agentKeyMap.Mode):
		return m.cycleMode()
	case key.Matches(k, agentKeyMap.Complete):
		if m.completeCommand() {
			return nil
		}
	case key.Matches(k, agentKeyMap.History):
		if m.slashKey(k) || m.historyKey(k) {
			return nil
		}
	case key.Matches(k, agentKeyMap.Bottom):
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
func (m *agentPanel) restartAgent() tea.Cmd {
	return m.reconnectTo(opener.Target{}, "restarting the agent (a new session)…")
}

// send starts a prompt turn with the prompt's text.
func (m *agentPanel) send() tea.Cmd {
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

func (m *agentPanel) prompt(text string) tea.Cmd {
	m.lastPrompt = text
	m.tr.user(text)
	m.tr.newTurn()
	m.core.Prompted(text)
	m.turn = turnRunning
	m.turnStarted = m.now()
	return startPrompt(m.conn, text)
}

// decided acts on what one of the agent's dialogs decided.
func (m *agentPanel) decided(a action) tea.Cmd {
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
		return m.sendAgain(a.prompt)
	}
	return nil
}

// localCommand runs elicit's own slash commands (those the agent does
// not offer itself): /export [FILE], /permissions [remove N].
func (m *agentPanel) localCommand(text string) (tea.Cmd, bool) {
	name, arg, _ := strings.Cut(text, " ")
	if name == "/permissions" && !m.agentHas("permissions") {
		return m.permissionsCommand(arg), true
	}
	if name != "/export" || m.agentHas("export") {
		return nil, false
	}
	path := strings.TrimSpace(arg)
	if path == "" {
		return exportNew("elicit-"+m.now().Format("2006-01-02-150405")+".md", false, m.tr.export()), true
	}
	return exportNew(path, true, m.tr.export()), true
}

// agentHas reports whether the agent offers the slash command name.
func (m *agentPanel) agentHas(name string) bool {
	for _, c := range m.commands {
		if c.Name == name {
			return true
		}
	}
	return false
}
