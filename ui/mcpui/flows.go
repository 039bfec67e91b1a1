package mcpui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// flowKey handles keys while the pending-flows panel is open: reopen
// (the consent screen again, so a high-risk URL needs its second step
// here too), copy, mark done, stop waiting.
func (m *Model) flowKey(k tea.KeyPressMsg) tea.Cmd {
	flows := m.core.Flows()
	if len(flows) == 0 {
		m.showFlows = false
		return nil
	}
	m.flowSel = min(m.flowSel, len(flows)-1)
	f := flows[m.flowSel]
	var cmd tea.Cmd
	switch k.String() {
	case "esc", "q", "ctrl+g":
		m.showFlows = false
	case "up", "k":
		m.flowSel = (m.flowSel + len(flows) - 1) % len(flows)
	case "down", "j":
		m.flowSel = (m.flowSel + 1) % len(flows)
	case "o", "enter":
		md := newURLModal(f.Q, m.server, m.th)
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
	if len(m.core.Flows()) == 0 {
		m.showFlows = false
	}
	return cmd
}

// flowsView is the pending-flows panel.
func (m *Model) flowsView(width, height int) string {
	th := m.th
	flows := m.core.Flows()
	inner := max(width-4, 10)
	lines := []string{th.ModalTitle.Render("Pending URL flows"), th.Muted.Render(fmt.Sprintf("%s · %d waiting for notifications/elicitation/complete", m.server, len(flows))), ""}
	for i, fl := range flows {
		cur := "  "
		if i == m.flowSel {
			cur = th.Selected.Render("› ")
		}
		age := m.now().Sub(fl.Started).Round(time.Second)
		kind := ""
		if fl.Legacy {
			kind = " · a call waits for it"
		}
		line := fmt.Sprintf("%s  id %s  %s ago%s", th.Highlight.Render(fl.Q.Report.Site()), sanitize.ID(fl.Q.ElicitationID), age, kind)
		lines = append(lines, cur+wrapText(line, inner-2))
	}
	lines = append(lines, "", th.KeyHelp.Render(wrapText("↑/↓ select · o reopen (asks again) · c copy URL · d mark done · x stop waiting · esc close", inner)))
	body := strings.Join(lines, "\n")
	if n := strings.Count(body, "\n") + 1; n > height-2 {
		body = strings.Join(strings.Split(body, "\n")[n-(height-2):], "\n")
	}
	return th.Modal.Width(width).Render(body)
}
