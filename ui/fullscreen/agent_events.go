package fullscreen

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/opener"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// onAttached starts reading a new connection's events at once, so a
// question the agent asks while it starts is shown over the start-up
// screen.
func (m *agentPanel) onAttached(msg attachedMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	return m.attach(msg.conn)
}

// attach makes c the connection and starts its event pump, once.
func (m *agentPanel) attach(c *acpconn.Conn) tea.Cmd {
	if m.pumping == c {
		return nil
	}
	m.conn, m.pumping = c, c
	var cmd tea.Cmd
	if m.rc.attach { // a reconnect: the open questions wait for the agent to ask again
		m.rc.attach = false
		m.core.Reattach(c)
	} else {
		cmd = m.changes(m.core.SetConn(c))
	}
	m.core.SetMemory(m.opts.Memory.For(c))
	return tea.Batch(cmd, pump(c))
}

// initialized reports whether the connection answered initialize (its
// Info may be read).
func (m *agentPanel) initialized() bool { return m.conn != nil && m.inited == m.conn }

func (m *agentPanel) onConnected(msg connectedMsg) tea.Cmd {
	rc, handled, after := m.reconnected(msg)
	if handled {
		return rc
	}
	cmd := m.connected(msg)
	if after != nil {
		cmd = tea.Batch(cmd, after())
	}
	return cmd
}

func (m *agentPanel) connected(msg connectedMsg) tea.Cmd {
	if msg.gen != m.gen { // an agent that was replaced meanwhile
		if msg.conn != nil && msg.conn != m.conn {
			return closeConn(msg.conn)
		}
		return nil
	}
	var cmds []tea.Cmd
	if msg.conn != nil {
		cmds = append(cmds, m.attach(msg.conn))
		m.inited = msg.conn
		m.name, m.version = sanitize.Line(msg.conn.AgentName()), sanitize.Line(msg.conn.AgentVersion())
	}
	if msg.err != nil {
		m.replayTop = nil
		m.saySignIn(msg.res.SignIn)
		if msg.auth {
			if msg.conn == nil {
				m.connState = connGone
			}
			return tea.Batch(append(cmds, m.offerSignIn(msg.err))...)
		}
		m.connState = connGone
		m.tr.notice("could not start a session: "+sanitize.Text(msg.err.Error()), true)
		m.tr.items[len(m.tr.items)-1].stderr = acpconn.StderrOf(msg.err)
		if msg.conn != nil {
			m.tr.items[len(m.tr.items)-1].stderr = msg.conn.StderrTail()
		}
		if !waits[*exitModal](&m.queue) {
			cmds = append(cmds, m.push(newExitModal(m.name, "no session could be started", m.th), false))
		}
		return tea.Batch(cmds...)
	}
	m.saySignIn(msg.res.SignIn)
	if msg.res.Fresh != "" {
		m.tr.notice("nothing to resume ("+msg.res.Fresh+"): this is a new session", false)
	}
	if msg.res.Opened || m.session.ID == "" {
		m.startSession(msg.res.State, msg.res.Resumed)
	} else {
		m.connState = connReady
		m.tr.info("signed in")
	}
	if msg.res.Opened {
		m.flagsDone = true // --mode and --model went with this opening
	}
	for _, s := range msg.res.Settings {
		if s.Err != nil {
			m.tr.notice(sanitize.Text(s.Err.Error()), true)
		}
	}
	return tea.Batch(cmds...)
}

// saySignIn shows the sign-in the opener made without asking.
func (m *agentPanel) saySignIn(tried []opener.Attempt) {
	for _, at := range tried {
		if text, ok := say.SignIn(at); ok {
			m.tr.info(text)
		} else {
			m.tr.notice(text, true)
		}
	}
}

func closeConn(c *acpconn.Conn) tea.Cmd {
	return func() tea.Msg { c.Close(); return nil }
}

// startSession shows a session that was created, resumed or loaded.
func (m *agentPanel) startSession(st acpconn.SessionState, resumed bool) {
	m.session = st
	m.connState = connReady
	if m.conn != nil {
		m.tr.root = sanitize.Line(m.conn.Root())
	}
	m.tr.endStream()
	who := m.name
	if m.version != "" {
		who += " " + m.version
	}
	what := "session"
	if resumed {
		what = "resumed session " + sanitize.ID(st.ID)
	}
	if m.conn.IsRemote() { // say which transport is in use
		who += " over " + m.conn.Transport() + " at " + sanitize.Line(m.conn.Endpoint())
	}
	m.infoAboveReplay(fmt.Sprintf("connected to %s · %s in %s", who, what, sanitize.Line(m.conn.Root())), resumed)
}

// onEvents applies a batch of agent events and asks for the next one.
func (m *agentPanel) onEvents(msg eventsMsg) tea.Cmd {
	if msg.conn != m.conn { // a batch from an agent that was restarted
		return nil
	}
	var cmds []tea.Cmd
	last := false
	for _, ev := range msg.events {
		n := len(m.tr.items)
		cmds = append(cmds, m.apply(ev))
		m.noteReplay(ev, n)
		_, last = ev.(acpconn.AgentExited)
	}
	if !last { // AgentExited is the connection's last event
		cmds = append(cmds, pump(m.conn))
	}
	m.eventsAt = m.now()
	if !m.quietPending {
		m.quietPending = true
		cmds = append(cmds, quietLater(busyFor))
	}
	if !m.flushing {
		m.flushing = true
		cmds = append(cmds, flushLater())
	}
	return tea.Batch(cmds...)
}

// apply hands one event to the core, then draws it.
func (m *agentPanel) apply(ev acpconn.Event) tea.Cmd {
	switch ev.(type) {
	case question.Gone, acpconn.AgentExited:
		if m.rc.active {
			return nil // a reconnect attempt that failed: its start's outcome says so, and the questions stay
		}
	}
	if m.rc.active && m.connState == connStarting {
		switch ev.(type) { // a reconnect's session/load replays what the transcript has
		case acpconn.MessageChunk, acpconn.ToolCall, acpconn.Plan, acpconn.TerminalOutput, acpconn.FileAccess:
			return m.changes(m.core.Apply(ev))
		}
	}
	ch := m.core.Apply(ev)
	if m.opts.Share != nil {
		m.opts.Share.Event(ev) // a turn's end drops what other clients see
	}
	switch ev := ev.(type) {
	case acpconn.MessageChunk:
		m.tr.chunk(ev)
		if warm := m.md.warmOnFence(ev.Text); warm != nil {
			return tea.Batch(m.changes(ch), warm)
		}
	case acpconn.ToolCall:
		m.tr.toolCall(ev)
	case acpconn.Plan:
		m.tr.setPlan(ev)
	case acpconn.TerminalOutput:
		m.tr.terminalOutput(ev)
	case question.Asked:
		if ev.Q.Kind == question.Permission {
			m.tr.permissionAsked(ev.Q.From.ToolCall)
		}
	case acpconn.FileAccess:
		m.tr.fileAccess(ev)
	case acpconn.Commands:
		m.commands = ev.List
		m.input.Placeholder = "Ask the agent…"
		if len(ev.List) > 0 {
			m.input.Placeholder = "Ask the agent… (type / for its commands)"
		}
	case acpconn.ModeChanged, acpconn.ConfigOptions:
		m.session.Update(ev)
	case acpconn.AgentOutput:
		m.tr.notice("agent output: "+ev.Line, false)
	case acpconn.SessionInfo:
		m.title = ev.Title
	case acpconn.Usage:
		m.usage = ev
	case acpconn.UnknownUpdate:
		m.tr.notice(fmt.Sprintf("the agent sent an update of unknown kind %q", sanitize.ID(ev.Kind)), false)
	case acpconn.Notice:
		m.tr.notice(ev.Text, ev.Error)
	case acpconn.TurnEnded:
		if acpconn.IsAuthRequired(ev.Err) {
			return tea.Batch(m.changes(ch), m.turnNeedsSignIn(ev))
		}
		return tea.Batch(m.changes(ch), m.turnEnded(ev))
	case acpconn.AgentExited:
		cmd := m.changes(ch)
		return tea.Batch(cmd, m.agentExited(ev))
	}
	return m.changes(ch)
}

func (m *agentPanel) turnEnded(ev acpconn.TurnEnded) tea.Cmd {
	m.tr.endStream()
	cancelling := m.turn == turnCancelling
	m.turn = turnIdle
	elapsed := m.now().Sub(m.turnStarted).Round(100 * 1e6)
	switch {
	case ev.URLNeeded != nil: // the core asks the URLs and notes it
	case ev.Err != nil:
		m.tr.notice("the turn failed: "+sanitize.Text(ev.Err.Error()), true)
	case ev.StopReason == "cancelled":
		m.tr.stopClocks() // what the agent ran was cancelled with the turn
		m.tr.notice("turn cancelled", false)
	case cancelling: // it had ended before the cancel reached the agent
		m.tr.notice(fmt.Sprintf("the turn ended before the cancel reached the agent: %s (%s)", say.StopReason(ev.StopReason), elapsed), false)
	case ev.StopReason != "end_turn":
		m.tr.notice(fmt.Sprintf("the turn ended: %s (%s)", say.StopReason(ev.StopReason), elapsed), false)
	}
	if p := m.retryNext; p != "" {
		m.retryNext = ""
		if ev.Failed() { // the agent may be gone (its exit comes next): the user decides
			m.keepInInput(p, "not sent again: the turn failed")
			return nil
		}
		return m.sendAgain(p)
	}
	return nil
}

func (m *agentPanel) agentExited(ev acpconn.AgentExited) tea.Cmd {
	starting := m.connState == connStarting
	running := m.turn != turnIdle
	m.connState = connGone
	m.turn = turnIdle
	m.tr.endStream()
	m.tr.stopClocks() // nothing it ran reports any more
	m.exited = &ev
	if p := m.retryNext; p != "" { // the retry waited for a turn the exit ended
		m.retryNext = ""
		m.keepInInput(p, "not sent again: the agent exited")
	}
	if !starting && !m.signingIn() && m.lostRemote(ev) {
		return m.connectionLost(ev, running)
	}
	why := say.ExitWhy(ev)
	if ev.Exit.Remote {
		m.tr.notice("the connection to the agent ended: "+why, true)
	} else {
		m.tr.notice("the agent exited: "+why, true)
	}
	m.tr.items[len(m.tr.items)-1].stderr = ev.Stderr
	if starting || m.signingIn() {
		return nil // the start-up's own outcome (or the sign-in) says what to do
	}
	if !m.quitting && !waits[*exitModal](&m.queue) {
		return m.push(newExitModal(m.name, "it exited: "+why, m.th), false)
	}
	return nil
}

// turnNeedsSignIn handles a prompt the agent refused with -32000 (claude
// signs in only then): the prompt comes back to the input, and sign-in is
// offered.
func (m *agentPanel) turnNeedsSignIn(ev acpconn.TurnEnded) tea.Cmd {
	m.tr.endStream()
	m.turn = turnIdle
	if m.input.Value() == "" && m.lastPrompt != "" {
		m.input.SetValue(m.lastPrompt)
		m.tr.info("your prompt is back in the input: send it again once signed in")
	}
	return m.offerSignIn(ev.Err)
}
