package mcpui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// quitWindow is how soon a second Ctrl+C must follow the first to quit.
const quitWindow = 1500 * time.Millisecond

// onKey handles a key press. The front question gets it when the arbiter
// says so; every other key goes where the user is (the list, the
// arguments) and counts as typing, so a question that arrives meanwhile
// docks instead of taking it.
func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	if m.showFlows {
		return m.flowKey(k)
	}
	if f := m.front(); f != nil {
		taken, consumed, cmd := m.arb.Take(k)
		if taken {
			if consumed {
				return cmd
			}
			if u, ok := f.(keyUser); ok && !u.usesKey(k) {
				if dock, tick := m.arb.Unused(k, nil); dock {
					return tea.Batch(tick, m.baseKey(k))
				}
			}
			return m.modalUpdate(f, k)
		}
		m.arb.Typed()
		return tea.Batch(cmd, m.baseKey(k))
	}
	m.arb.Typed()
	return m.baseKey(k)
}

// baseKey handles a key for what is under the questions.
func (m *Model) baseKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "ctrl+c":
		return m.ctrlC()
	case "pgup":
		m.tr.scroll += max(m.h/2, 1)
		return nil
	case "pgdown":
		m.tr.scroll = max(m.tr.scroll-max(m.h/2, 1), 0)
		return nil
	case "ctrl+g":
		if len(m.core.Flows()) > 0 {
			m.showFlows, m.flowSel = true, 0
			return ageTick()
		}
		m.tr.info("no URL flow is pending")
		return nil
	}
	switch m.pane {
	case paneArgs:
		cmd := m.args.update(k)
		if out, done := m.args.form.Done(); done {
			return tea.Batch(cmd, m.argsDone(out))
		}
		return cmd
	case paneEditor:
		switch k.String() {
		case "ctrl+s":
			if args, ok := m.editor.check(); ok {
				return m.run(m.editor.tool, args)
			}
			return nil
		case "esc":
			m.drafts()[m.editor.tool.Name] = m.editor.ta.Value()
			m.pane, m.editor = paneList, nil
			return nil
		}
		return m.editor.update(k)
	}
	return m.listKey(k)
}

func (m *Model) onPaste(p tea.PasteMsg) tea.Cmd {
	if f := m.front(); f != nil && m.arb.Focused {
		return m.modalUpdate(f, p)
	}
	m.arb.Typed()
	switch m.pane {
	case paneArgs:
		return m.args.update(p)
	case paneEditor:
		return m.editor.update(p)
	}
	return nil
}

// ctrlC cancels the running call; otherwise a second press quits, never
// while a question of the server waits.
func (m *Model) ctrlC() tea.Cmd {
	if m.call != nil && !m.call.stopping {
		return m.cancelCall()
	}
	if m.pane != paneList {
		m.pane, m.args, m.editor = paneList, nil, nil
		return nil
	}
	for _, q := range m.queue {
		if q.question() != nil {
			m.tr.notice("a question of the server waits: answer it (tab) before quitting", false)
			return nil
		}
	}
	now := m.now()
	if !m.armed.IsZero() && now.Sub(m.armed) < quitWindow {
		return m.quit()
	}
	m.armed = now
	m.tr.info("ctrl+c again quits")
	return nil
}

// cancelCall ends the running call: the SDK sends notifications/cancelled.
func (m *Model) cancelCall() tea.Cmd {
	m.call.stopping = true
	m.call.cancel()
	return nil
}

func (m *Model) count(t tab) int {
	switch t {
	case tabTools:
		return len(m.tools)
	case tabPrompts:
		return len(m.prompts)
	}
	return len(m.res)
}

// listKey moves in the lists and opens a tool.
func (m *Model) listKey(k tea.KeyPressMsg) tea.Cmd {
	n := m.count(m.tab)
	switch k.String() {
	case "up", "k":
		if n > 0 {
			m.sel[m.tab] = (m.sel[m.tab] + n - 1) % n
		}
	case "down", "j":
		if n > 0 {
			m.sel[m.tab] = (m.sel[m.tab] + 1) % n
		}
	case "home":
		m.sel[m.tab] = 0
	case "end":
		m.sel[m.tab] = max(n-1, 0)
	case "left", "shift+tab":
		m.tab = (m.tab + 2) % 3
	case "right", "tab":
		m.tab = (m.tab + 1) % 3
	case "esc":
		if m.call != nil && !m.call.stopping {
			return m.cancelCall()
		}
	case "enter":
		if m.tab != tabTools || n == 0 {
			return nil
		}
		return m.openTool(m.tools[m.sel[tabTools]])
	}
	return nil
}

// openTool shows the tool's arguments: a form when its schema is in the
// restricted subset, the JSON editor otherwise; a tool without arguments
// runs at once.
func (m *Model) openTool(t tabTool) tea.Cmd {
	if len(propertyOrder(t.InputSchema)) == 0 {
		return m.run(t, nil)
	}
	a, err := newArgsForm(t, m.th)
	if err != nil {
		m.editor = newJSONEditor(t, sanitize.Summary(err.Error(), 200), m.drafts()[t.Name], m.th)
		m.pane = paneEditor
		return nil
	}
	m.args, m.pane = a, paneArgs
	return a.form.Init()
}

// argsDone runs the tool with the form's answers, or goes back.
func (m *Model) argsDone(out question.Outcome) tea.Cmd {
	t := m.args.tool
	m.pane, m.args = paneList, nil
	if out.Action != question.Accept {
		return nil
	}
	args, err := jsonObject(out.Content)
	if err != nil {
		m.tr.notice("the arguments could not be sent: "+err.Error(), true)
		return nil
	}
	return m.run(t, args)
}

// run starts a call from the list; while another runs, it waits its turn
// (one call at a time: a -32042 retry knows which call it retries).
func (m *Model) run(t tabTool, args []byte) tea.Cmd {
	m.pane, m.args, m.editor = paneList, nil, nil
	return m.startOrQueue(callSpec{tool: t, args: args})
}

// startOrQueue starts spec, or has it wait for the call that runs.
func (m *Model) startOrQueue(spec callSpec) tea.Cmd {
	t := spec.tool
	if m.call != nil {
		if m.next != nil {
			m.tr.notice(m.next.tool.Display()+" no longer waits: "+t.Display()+" runs next instead", false)
		}
		m.next = &spec
		m.tr.info(t.Display() + " runs once " + m.call.spec.tool.Display() + " is done")
		return nil
	}
	return m.startCall(spec)
}
