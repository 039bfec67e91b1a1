package fullscreen

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
)

// instructionLines is how much of the server's instructions the
// transcript shows; the export (and what is printed at exit) has them all.
const instructionLines = 6

func (m *mcpPanel) onConnected(msg mcpConnectedMsg) tea.Cmd {
	if msg.err != nil {
		m.connErr = sanitize.Text(msg.err.Error())
		m.tr.notice("could not connect to "+m.name+": "+m.connErr, true)
		var se *mcpconn.StartError
		if errors.As(msg.err, &se) {
			m.stderr(se.Stderr)
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
	m.name, m.version = info.Display(), info.Version
	m.core.SetConn(c)
	mem := m.opts.Memory
	sm := session.Memory{Hooks: mem.Hooks, History: mem.History, Audit: mem.Audit, Agent: mem.Agent, Cwd: m.cfg.Dir}
	if sm.Agent == "" {
		sm.Agent = info.Name
	}
	m.core.SetMemory(sm)
	who := m.name
	if m.version != "" {
		who += " " + m.version
	}
	m.tr.info(fmt.Sprintf("connected to %s (MCP %s)", who, sanitize.Line(info.Protocol)))
	if in := info.Instructions; in != "" {
		// The server's instructions are for a model; the first lines say
		// what it is, and the transcript keeps them whole.
		m.tr.lines(lineQuiet, "server instructions:\n"+in).fold = 1 + instructionLines
	}
	return tea.Batch(pumpMCP(c), list(c))
}

// stderr shows the server's last stderr lines.
func (m *mcpPanel) stderr(lines []string) {
	for _, l := range lines {
		m.tr.logLine("  | " + l)
	}
}

func (m *mcpPanel) onListed(msg listedMsg) {
	m.tools, m.prompts, m.res = msg.tools, msg.prompts, msg.resources
	if msg.err != nil {
		m.tr.notice("listing what the server offers: "+sanitize.Summary(msg.err.Error(), 300), true)
	}
	for i := range m.sel {
		m.sel[i] = min(m.sel[i], max(m.count(tab(i))-1, 0))
	}
}

// onEvent hands one event of the server to the core (its questions, as
// they are), draws it, and asks for the next.
func (m *mcpPanel) onEvent(msg mcpEventMsg) tea.Cmd {
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
		m.tr.logLine(fmt.Sprintf("server log (%s): %s", ev.Level, ev.Text))
	case mcpconn.ListChanged:
		cmds = append(cmds, list(m.conn))
	case mcpconn.Notice:
		m.tr.notice(ev.Text, ev.Error)
	case mcpconn.Exited:
		m.exited = true
		m.tr.notice(ev.Reason, true) // "the server exited (exit status 3)", "the connection closed"
		m.stderr(ev.Stderr)
	}
	cmds = append(cmds, m.changes(m.core.Apply(msg.ev)))
	if _, last := msg.ev.(mcpconn.Exited); !last {
		cmds = append(cmds, pumpMCP(m.conn))
	}
	return tea.Batch(cmds...)
}

// retry runs the -32042 call again (auto), or asks first; a call is
// retried once.
func (m *mcpPanel) retry(_ string, auto bool) tea.Cmd {
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
	return m.push(newRetryCallModal(*spec, m.th), false)
}

// onCallDone shows a call's result, then starts the one that waited.
func (m *mcpPanel) onCallDone(msg callDoneMsg) tea.Cmd {
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

// result shows a call's result; a -32042 refusal asks its URLs.
func (m *mcpPanel) result(msg callDoneMsg) tea.Cmd {
	if reqs, refused, ok := m.conn.URLRequired(msg.err); ok {
		for _, why := range refused {
			m.tr.notice("refused a URL the server needs: "+sanitize.Line(why), true)
		}
		if len(reqs) == 0 {
			m.tr.notice(m.name+" needs URL flows completed first, and none could be offered", true)
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
	m.tr.callResult(msg.res, m.now().Sub(msg.run.started))
	return nil
}
