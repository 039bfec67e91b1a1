package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

func (m *Model) onConnected(msg connectedMsg) tea.Cmd {
	if msg.conn != nil {
		m.conn = msg.conn
		m.agent, m.version = msg.conn.AgentName(), msg.conn.AgentVersion()
	}
	if msg.err != nil {
		if msg.auth {
			m.queue.push(newAuthModal(m.conn.AuthMethods(), m.agent, m.th, m.now))
			return pump(m.conn)
		}
		m.connState = connGone
		m.tr.notice("could not start a session: "+msg.err.Error(), true)
		var cmd tea.Cmd
		if m.conn != nil {
			m.tr.items[len(m.tr.items)-1].stderr = m.conn.StderrTail()
			cmd = pump(m.conn)
		}
		m.queue.push(newExitModal(m.agent, "no session could be started", m.th, m.now))
		return cmd
	}
	m.startSession(msg.session)
	return pump(m.conn)
}

func (m *Model) startSession(st acpconn.SessionState) {
	m.session = st
	m.connState = connReady
	who := m.agent
	if m.version != "" {
		who += " " + m.version
	}
	m.tr.info(fmt.Sprintf("connected to %s · session in %s", who, m.conn.Root()))
}

func (m *Model) onAuthDone(msg authDoneMsg) tea.Cmd {
	if msg.err != nil {
		if acpconn.IsAuthRequired(msg.err) {
			m.tr.notice("authentication did not succeed; pick a method again", true)
		} else {
			m.tr.notice("authentication failed: "+msg.err.Error(), true)
		}
		m.queue.push(newAuthModal(m.conn.AuthMethods(), m.agent, m.th, m.now))
		return nil
	}
	m.startSession(msg.session)
	return nil
}

// onEvents applies a batch of agent events and asks for the next one.
func (m *Model) onEvents(msg eventsMsg) tea.Cmd {
	if msg.conn != m.conn { // a batch from an agent that was restarted
		return nil
	}
	var cmds []tea.Cmd
	last := false
	for _, ev := range msg.events {
		cmds = append(cmds, m.apply(ev))
		_, last = ev.(acpconn.AgentExited)
	}
	if !last { // AgentExited is the connection's last event
		cmds = append(cmds, pump(m.conn))
	}
	if !m.flushing {
		m.flushing = true
		cmds = append(cmds, flushLater())
	}
	return tea.Batch(cmds...)
}

// apply turns one event into transcript entries, modals or flow changes.
func (m *Model) apply(ev acpconn.Event) tea.Cmd {
	switch ev := ev.(type) {
	case acpconn.MessageChunk:
		m.tr.chunk(ev)
	case acpconn.ToolCall:
		m.tr.toolCall(ev)
	case acpconn.Plan:
		m.tr.setPlan(ev)
	case acpconn.Commands:
		m.commands = ev.List
		m.input.Placeholder = "Ask the agent…"
		if len(ev.List) > 0 {
			m.input.Placeholder = "Ask the agent… (type / for its commands)"
		}
	case acpconn.ModeChanged:
		m.session.Mode = ev.ID
	case acpconn.ConfigOptions:
		m.session.Options = ev.Options
	case acpconn.SessionInfo:
		m.title = ev.Title
	case acpconn.Usage:
		m.usage = ev
	case acpconn.UnknownUpdate:
		m.tr.notice(fmt.Sprintf("the agent sent an update of unknown kind %q", ev.Kind), false)
	case acpconn.Notice:
		m.tr.notice(ev.Text, ev.Error)
	case acpconn.PermissionRequest:
		m.queue.push(newPermModal(ev, m.agent, m.th, m.now))
	case acpconn.ElicitationRequest:
		return m.pushElicitation(ev)
	case acpconn.ElicitationComplete:
		return m.completeFlow(ev.ElicitationID)
	case acpconn.RequestClosed:
		m.closeRequest(ev)
	case acpconn.TurnEnded:
		return m.turnEnded(ev)
	case acpconn.AgentExited:
		m.agentExited(ev)
	}
	return nil
}

func (m *Model) toolTitle(id string) string {
	if id == "" {
		return ""
	}
	if it := m.tr.tools[id]; it != nil && it.tool.Title != "" {
		return it.tool.Title
	}
	return id
}

func (m *Model) pushElicitation(ev acpconn.ElicitationRequest) tea.Cmd {
	tool := m.toolTitle(ev.Scope.ToolCallID)
	if ev.Mode == "url" {
		m.queue.push(newURLModal(ev, m.agent, tool, m.th, m.now))
		return nil
	}
	if m.opts.Answers != nil {
		m.answerForm(ev)
		return nil
	}
	f := newFormModal(ev, m.agent, tool, m.th, m.now)
	m.queue.push(f)
	return f.form.Init()
}

// answerForm answers a form from --answers and defaults, as -p does.
func (m *Model) answerForm(ev acpconn.ElicitationRequest) {
	content, err := ev.Schema.FromAnswers(m.opts.Answers)
	if err != nil {
		m.conn.RespondElicitation(ev.ID, "decline", nil)
		m.tr.notice(fmt.Sprintf("declined %q from --answers: %v", sanitize.Summary(ev.Message, 60), err), false)
		return
	}
	m.conn.RespondElicitation(ev.ID, "accept", content)
	b, _ := json.Marshal(content)
	m.tr.info(fmt.Sprintf("answered %q from --answers: %s", sanitize.Summary(ev.Message, 60), b))
}

// closeRequest closes the modal of a request that ended without the user,
// keeping anything the user typed visible in the transcript.
func (m *Model) closeRequest(ev acpconn.RequestClosed) {
	md := m.queue.byReq(ev.ID)
	if md == nil {
		return
	}
	m.queue.remove(md)
	text := "a question from the agent was closed: " + ev.Reason
	if d := md.draft(); d != "" {
		text += "\nwhat you had entered:" + d
	}
	m.tr.notice(text, false)
}

func (m *Model) turnEnded(ev acpconn.TurnEnded) tea.Cmd {
	m.tr.endStream()
	m.turn = turnIdle
	elapsed := m.now().Sub(m.turnStarted).Round(100 * 1e6)
	switch {
	case ev.URLNeeded != nil:
		m.tr.notice(fmt.Sprintf("the agent needs %s completed before it can answer", plural(len(ev.URLNeeded), "URL flow", "URL flows")), false)
		m.legacyPrompt = m.lastPrompt
		m.legacyWaiting = map[string]bool{}
		for _, r := range ev.URLNeeded {
			m.legacyWaiting[r.ElicitationID] = true
			m.queue.push(newURLModal(r, m.agent, "", m.th, m.now))
		}
	case ev.Err != nil:
		m.tr.notice("the turn failed: "+ev.Err.Error(), true)
	case ev.StopReason == "cancelled":
		m.tr.notice("turn cancelled", false)
	case ev.StopReason != "end_turn":
		m.tr.notice(fmt.Sprintf("the turn ended: %s (%s)", strings.ReplaceAll(ev.StopReason, "_", " "), elapsed), false)
	}
	return nil
}

func (m *Model) agentExited(ev acpconn.AgentExited) {
	m.connState = connGone
	m.turn = turnIdle
	m.tr.endStream()
	for _, md := range append([]modal(nil), m.queue.items...) {
		if md.reqID() != 0 {
			m.closeRequest(acpconn.RequestClosed{ID: md.reqID(), Reason: "the agent exited"})
		}
	}
	why := ev.Exit.String()
	if ev.Reason != "" {
		why = ev.Reason + "; " + why
	}
	m.tr.notice("the agent exited: "+why, true)
	m.tr.items[len(m.tr.items)-1].stderr = ev.Stderr
	m.exited = &ev
	if !m.quitting && m.queue.byKind(func(md modal) bool { _, ok := md.(*exitModal); return ok }) == nil {
		m.queue.push(newExitModal(m.agent, "it exited: "+why, m.th, m.now))
	}
}
