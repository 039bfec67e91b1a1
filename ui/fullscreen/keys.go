package fullscreen

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// onKey handles a key press. The front question gets it when the arbiter
// says so; otherwise the global keys, the source's own, then the flows
// panel or where the user types (the prompt, the tool list). Every key
// that goes elsewhere than a question counts as typing for the arbiter.
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
				return tea.Batch(cmd, tick, m.src.typing(k))
			}
			return tea.Batch(cmd, m.toModal(f, k))
		}
		if cmd != nil {
			return tea.Batch(cmd, m.typed(k))
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
		return m.push(newHelpModal(m.helpGroups(), m.th), true)
	case m.queue.front() != nil:
		// A question is docked: every other key is typing.
		return m.typed(k)
	}
	m.arb.Typed()
	if key.Matches(k, m.keys.Flows) {
		if len(m.core.Flows()) == 0 {
			if !m.showFlows {
				m.tr.info("no URL flow is pending")
			}
			m.showFlows = false
			return nil
		}
		m.showFlows = !m.showFlows
		return ageTick()
	}
	if cmd, ok := m.src.global(k); ok {
		return cmd
	}
	if m.showFlows {
		return m.flowKey(k)
	}
	return m.src.typing(k)
}

// typed hands a key to where the user types: it is typing, for the
// arbiter.
func (m *Model) typed(k tea.KeyPressMsg) tea.Cmd {
	m.arb.Typed()
	return m.src.typing(k)
}

// armed is a Ctrl+C that waits for a second press to do what it said.
type armed struct {
	what string // "quit" or "clear"
	at   time.Time
}

// confirmWindow is how soon the second Ctrl+C must follow the first.
const confirmWindow = 1500 * time.Millisecond

// ctrlC cancels what runs (a turn, a call) or a focused question, as Esc
// would; otherwise it needs a second press to clear a draft (kept in
// history) or to quit, and it never quits past a draft or a waiting
// question.
func (m *Model) ctrlC() tea.Cmd {
	now := m.now()
	second := func(what string) bool {
		ok := m.armed.what == what && now.Sub(m.armed.at) < confirmWindow
		m.armed = armed{what, now}
		return ok
	}
	if cmd, ok := m.src.stop(); ok {
		m.armed = armed{}
		return cmd
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
	if cmd, ok := m.src.back(second); ok {
		return tea.Batch(cmd, m.disarmLater())
	}
	if second("quit") {
		return m.quit()
	}
	return m.disarmLater()
}

// disarmMsg ends an armed Ctrl+C once its window has passed, so the
// status bar stops saying that a second press quits (or clears) as soon
// as it no longer would.
type disarmMsg struct{ at time.Time }

// disarmLater is the tick that ends the armed Ctrl+C, if one is armed.
func (m *Model) disarmLater() tea.Cmd {
	if m.armed.what == "" {
		return nil
	}
	at := m.armed.at
	return tea.Tick(max(confirmWindow-m.now().Sub(at), 0), func(time.Time) tea.Msg { return disarmMsg{at} })
}

// disarm handles a disarmMsg: the press it was for is over, unless a
// later press armed again (or the test clock says it is not yet time).
func (m *Model) disarm(msg disarmMsg) {
	if m.armed.at.Equal(msg.at) && m.now().Sub(msg.at) >= confirmWindow {
		m.armed = armed{}
	}
}

func (m *Model) quit() tea.Cmd {
	m.quitting = true
	return m.src.shutdown()
}
