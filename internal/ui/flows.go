package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

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
		md := newURLModal(f.Q, m.agent, m.th)
		md.reopen = true
		m.showFlows = false
		return m.push(md, true)
	case "c":
		m.tr.info("copied the URL to the clipboard")
		return tea.SetClipboard(f.Q.Elicit.Report.URL)
	case "d":
		cmd = m.changes(m.core.MarkDone(f))
	case "x":
		cmd = m.changes(m.core.Drop(f))
	}
	m.clampFlows()
	return cmd
}

// flowsView is the pending-flows panel.
func (m *Model) flowsView(width int) string {
	th := m.th
	flows := m.core.Flows()
	var b strings.Builder
	b.WriteString(th.ModalTitle.Render("Pending URL flows") + th.Muted.Render(fmt.Sprintf(" · %d waiting for the agent", len(flows))) + "\n\n")
	for i, f := range flows {
		cur := "  "
		if i == m.flowSel {
			cur = th.Selected.Render("> ")
		}
		age := m.now().Sub(f.Started).Round(time.Second)
		line := fmt.Sprintf("%s  %s  id %s  %s ago", th.Highlight.Render(f.Q.Elicit.Report.Site()), m.agent, sanitize.ID(f.Q.Elicit.ElicitationID), age)
		b.WriteString(cur + ansi.Truncate(line, width-6, "…") + "\n")
	}
	b.WriteString("\n" + th.KeyHelp.Render("↑/↓ select · o reopen (asks again) · c copy URL · d mark done · x stop waiting · esc close"))
	return th.Modal.Width(width).Render(b.String())
}
