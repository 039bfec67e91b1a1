package fullscreen

import "github.com/elicit-dev/elicit/acpconn"

// A session/load replays the session's history as events before the
// agent answers the load: the history is drawn before elicit knows the
// session is open. The line that says so goes above it, where it reads as
// a heading, not below it.

// noteReplay notes the first entry of the history drawn while a session
// opens (n is the entry count before ev): the top of the replay.
func (m *agentPanel) noteReplay(ev acpconn.Event, n int) {
	if m.connState != connStarting || m.replayTop != nil || len(m.tr.items) <= n {
		return
	}
	switch ev.(type) {
	case acpconn.MessageChunk, acpconn.ToolCall, acpconn.Plan, acpconn.TerminalOutput, acpconn.FileAccess:
		m.replayTop = m.tr.items[n]
	}
}

// infoAboveReplay adds the session's opening line, above the history its
// load replayed when it was resumed (at the end when nothing was
// replayed, or that entry is gone), and forgets the replay.
func (m *agentPanel) infoAboveReplay(text string, resumed bool) {
	top := m.replayTop
	m.replayTop = nil
	m.tr.info(text)
	if top == nil || !resumed {
		return
	}
	items := m.tr.items
	last := len(items) - 1
	for i := last - 1; i >= 0; i-- {
		if items[i] == top {
			line := items[last]
			copy(items[i+1:], items[i:last])
			items[i] = line
			return
		}
	}
}
