package mcpui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
)

// instructionLines is how much of the server's instructions the
// transcript shows.
const instructionLines = 6

func (m *Model) onConnected(msg connectedMsg) tea.Cmd {
	if msg.err != nil {
		m.connErr = sanitize.Text(msg.err.Error())
		m.tr.notice("could not connect to "+m.server+": "+m.connErr, true)
		var se *mcpconn.StartError
		if errors.As(msg.err, &se) {
			for _, l := range se.Stderr {
				m.tr.add(lineStderr, "  | "+l)
			}
		}
		m.exited = true
		return nil
	}
	c := msg.conn
	if m.quitting {
		return func() tea.Msg { c.Close(); return nil }
	}
	m.conn = c
	info := c.Info()
	m.server, m.version = info.Display(), info.Version
	m.core.SetConn(c)
	mem := m.opts.Memory
	sm := session.Memory{Hooks: mem.Hooks, History: mem.History, Audit: mem.Audit, Agent: mem.Agent, Cwd: m.opts.Server.Dir}
	if sm.Agent == "" {
		sm.Agent = info.Name
	}
	m.core.SetMemory(sm)
	who := m.server
	if m.version != "" {
		who += " " + m.version
	}
	m.tr.info(fmt.Sprintf("connected to %s (MCP %s)", who, sanitize.Line(info.Protocol)))
	if in := info.Instructions; in != "" {
		// The server's instructions are for a model; the first lines say
		// what it is, and pgup shows them whole.
		lines := strings.Split(strings.TrimSpace(in), "\n")
		if len(lines) > instructionLines {
			lines = append(lines[:instructionLines], fmt.Sprintf("… (%d more lines of instructions; the transcript keeps them after exit)", len(lines)-instructionLines))
			m.tr.instructions = in
		}
		m.tr.add(lineInfo, "server instructions:\n"+strings.Join(lines, "\n"))
	}
	return tea.Batch(pump(c), list(c))
}

func (m *Model) onListed(msg listedMsg) {
	m.tools, m.prompts, m.res = msg.tools, msg.prompts, msg.resources
	if msg.err != nil {
		m.tr.notice("listing what the server offers: "+sanitize.Summary(msg.err.Error(), 300), true)
	}
	for i := range m.sel {
		m.sel[i] = min(m.sel[i], max(m.count(tab(i))-1, 0))
	}
}

// onEvent applies one event of the server and asks for the next.
func (m *Model) onEvent(msg eventMsg) tea.Cmd {
	if msg.conn != m.conn || !msg.ok {
		return nil
	}
	var cmds []tea.Cmd
	switch ev := msg.ev.(type) {
	case mcpconn.Progress:
		if m.call != nil && ev.Token == m.call.token {
			m.call.progress, m.call.hasProg = ev, true
		}
	case mcpconn.Log:
		m.tr.add(lineLog, fmt.Sprintf("server log (%s): %s", ev.Level, ev.Text))
	case mcpconn.ListChanged:
		cmds = append(cmds, list(m.conn))
	case mcpconn.Notice:
		m.tr.notice(ev.Text, ev.Error)
	case mcpconn.Exited:
		m.exited = true
		m.tr.notice(ev.Reason, true) // "the server exited (exit status 3)", "the connection closed"
		for _, l := range ev.Stderr {
			m.tr.add(lineStderr, "  | "+l)
		}
	}
	cmds = append(cmds, m.changes(m.core.Apply(msg.ev))) // its questions, as they are
	if _, last := msg.ev.(mcpconn.Exited); !last {
		cmds = append(cmds, pump(m.conn))
	}
	return tea.Batch(cmds...)
}

// changes renders what the core changed: notes, new questions, questions
// closed without the user, and a call to retry.
func (m *Model) changes(ch session.Changes) tea.Cmd {
	for _, n := range ch.Notes {
		switch n.Level {
		case session.Info, session.Decision:
			m.tr.info(n.Text)
		default:
			m.tr.notice(n.Text, n.Level == session.Error)
		}
	}
	var cmds []tea.Cmd
	for _, cl := range ch.Closed {
		md := m.byQuestion(cl.Q)
		if md == nil {
			continue
		}
		cmds = append(cmds, m.remove(md))
		text := "a question from the server was closed: " + sanitize.Line(cl.Reason)
		if d := md.draft(); d != "" {
			text += "\nwhat you had entered:" + d
		}
		m.tr.notice(text, false)
	}
	for _, q := range ch.Asked {
		cmds = append(cmds, m.ask(q))
	}
	for _, q := range ch.Prepare {
		cmds = append(cmds, prepare(m.core, q))
	}
	for _, p := range ch.After {
		cmds = append(cmds, afterHooks(m.core, p))
	}
	if ch.Send == callKey || ch.Retry == callKey {
		cmds = append(cmds, m.offerRetry(ch.Send == callKey))
	}
	return tea.Batch(cmds...)
}

// offerRetry retries the -32042 call (auto), or asks first; a call is
// retried once.
func (m *Model) offerRetry(auto bool) tea.Cmd {
	spec := m.lastCall
	switch {
	case spec == nil:
		return nil
	case spec.retry:
		m.tr.notice("the call was already retried once after its URL flows; run it again from the list", false)
		return nil
	case auto:
		again := *spec
		again.retry = true
		return m.startOrQueue(again)
	}
	return m.push(newRetryModal(*spec, m.th), false)
}

// onCallDone shows a call's result, then starts the one that waited.
func (m *Model) onCallDone(msg callDoneMsg) tea.Cmd {
	if m.call == msg.run {
		m.call = nil
	}
	msg.run.cancel()
	cmd := m.result(msg)
	if m.call == nil && m.next != nil && !m.exited {
		spec := *m.next
		m.next = nil
		return tea.Batch(cmd, m.startCall(spec))
	}
	return cmd
}

// result shows a call's result.
func (m *Model) result(msg callDoneMsg) tea.Cmd {
	if reqs, refused, ok := m.conn.URLRequired(msg.err); ok {
		for _, why := range refused {
			m.tr.notice("refused a URL the server needs: "+sanitize.Line(why), true)
		}
		if len(reqs) == 0 {
			m.tr.notice(m.server+" needs URL flows completed first, and none could be offered", true)
			return nil
		}
		return m.changes(m.core.Apply(question.URLsNeeded{Qs: reqs}))
	}
	if msg.err != nil {
		if errors.Is(msg.err, context.Canceled) {
			m.tr.notice("cancelled "+msg.run.spec.tool.Display()+" (the server was sent notifications/cancelled)", false)
			return nil
		}
		m.tr.notice("the call failed: "+mcpconn.ErrorText(msg.err), true)
		return nil
	}
	m.tr.result(msg.res, m.now().Sub(msg.run.started))
	return nil
}
