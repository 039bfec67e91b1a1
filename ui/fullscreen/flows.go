package fullscreen

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// ageTickMsg redraws the flows panel so the ages it shows stay current.
type ageTickMsg struct{}

func ageTick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return ageTickMsg{} })
}

func (m *Model) clampFlows() {
	n := len(m.core.Flows())
	if m.flowSel >= n {
		m.flowSel = max(0, n-1)
	}
	if n == 0 {
		m.showFlows = false
	}
}

// flowKey handles keys while the pending-flows panel has focus. Reopening
// shows the consent screen again, so a high-severity URL needs its second
// step here too.
func (m *Model) flowKey(k tea.KeyPressMsg) tea.Cmd {
	flows := m.core.Flows()
	if len(flows) == 0 {
		m.showFlows = false
		return nil
	}
	f := flows[m.flowSel]
	var cmd tea.Cmd
	switch k.String() {
	case "esc", "q":
		m.showFlows = false
	case "up", "k":
		m.flowSel = (m.flowSel + len(flows) - 1) % len(flows)
	case "down", "j":
		m.flowSel = (m.flowSel + 1) % len(flows)
	case "o", "enter":
		md := newURLModal(f.Q, m.whoOf(f.Q), m.th, m.overSSH, m.grace, m.now)
		md.reopen = true
		m.showFlows = false
		return m.push(md, true)
	case "c":
		m.tr.info("copied the URL to the clipboard")
		return tea.SetClipboard(f.Q.Report.URL)
	case "d":
		cmd = m.changes(m.core.MarkDone(f))
	case "x":
		cmd = m.changes(m.core.Drop(f))
	}
	m.clampFlows()
	return cmd
}

// flowsView is the pending-flows panel, in the scrolling frame with the
// selected flow in view. The panel keeps no scroll state of its own (the
// model is not this file's), so each view places the selection afresh.
func (m *Model) flowsView(width, height int) string {
	th := m.th
	flows := m.core.Flows()
	f := newFrame(th)
	f.title = "Pending URL flows"
	f.who = fmt.Sprintf("%s · %d waiting for the agent", m.name, len(flows))
	inner := max(width-4, 10)
	for i, fl := range flows {
		cur := "  "
		if i == m.flowSel {
			cur = th.Selected.Render("> ")
		}
		age := m.now().Sub(fl.Started).Round(time.Second)
		line := fmt.Sprintf("%s  id %s  %s ago", th.Highlight.Render(fl.Q.Report.Site()), sanitize.ID(fl.Q.ElicitationID), age)
		f.body = append(f.body, hang(cur, line, inner))
	}
	f.ensureVisible(m.flowSel)
	f.keys = "↑/↓ select · o reopen (asks again) · c copy URL · d mark done · x stop waiting · esc close"
	return f.view(width, height)
}
