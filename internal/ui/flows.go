package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/urlconsent"
)

// urlFlow is a URL elicitation the user consented to, waiting for the
// agent's elicitation/complete.
type urlFlow struct {
	req     acpconn.ElicitationRequest
	agent   string
	started time.Time
}

func (m *Model) addFlow(req acpconn.ElicitationRequest) {
	for _, f := range m.flows {
		if f.req.ElicitationID == req.ElicitationID {
			return
		}
	}
	m.flows = append(m.flows, &urlFlow{req: req, agent: m.agent, started: m.now()})
	m.tr.info(fmt.Sprintf("opening %s in the browser; the flow stays pending until the agent hears back (ctrl+p lists pending flows)", req.Report.Site()))
}

// completeFlow ends the flow with that id. Unknown and repeated ids are
// ignored, as the protocol requires.
func (m *Model) completeFlow(id string) tea.Cmd {
	for i, f := range m.flows {
		if f.req.ElicitationID == id {
			m.flows = append(m.flows[:i], m.flows[i+1:]...)
			m.tr.info("the agent reports the flow on " + f.req.Report.Site() + " is complete")
			m.clampFlows()
			return m.legacyDone(id)
		}
	}
	return nil
}

func (m *Model) clampFlows() {
	if m.flowSel >= len(m.flows) {
		m.flowSel = max(0, len(m.flows)-1)
	}
	if len(m.flows) == 0 {
		m.showFlows = false
	}
}

// legacyDone retries (or offers to retry) a prompt that failed with -32042
// once all of its URL flows are complete.
func (m *Model) legacyDone(id string) tea.Cmd {
	if !m.legacyWaiting[id] {
		return nil
	}
	delete(m.legacyWaiting, id)
	if len(m.legacyWaiting) > 0 {
		return nil
	}
	m.legacyWaiting = nil
	if m.opts.AutoRetry && m.turn == turnIdle && m.connState == connReady {
		m.tr.info("retrying the prompt")
		return m.prompt(m.legacyPrompt)
	}
	m.queue.push(newRetryModal(m.legacyPrompt, m.th, m.now))
	return nil
}

// ageTickMsg redraws the flows panel so the ages it shows stay current.
type ageTickMsg struct{}

func ageTick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return ageTickMsg{} })
}

// flowKey handles keys while the pending-flows panel has focus.
func (m *Model) flowKey(k tea.KeyPressMsg) tea.Cmd {
	if len(m.flows) == 0 {
		m.showFlows = false
		return nil
	}
	f := m.flows[m.flowSel]
	switch k.String() {
	case "esc", "q":
		m.showFlows = false
	case "up", "k":
		m.flowSel = (m.flowSel + len(m.flows) - 1) % len(m.flows)
	case "down", "j":
		m.flowSel = (m.flowSel + 1) % len(m.flows)
	case "o", "enter":
		return urlconsent.OpenCmd(m.opts.Opener, f.req.Report.URL)
	case "c":
		m.tr.info("copied the URL to the clipboard")
		return tea.SetClipboard(f.req.Report.URL)
	case "d":
		m.tr.info("marked the flow on " + f.req.Report.Site() + " done")
		return m.completeFlow(f.req.ElicitationID)
	case "x":
		m.flows = append(m.flows[:m.flowSel], m.flows[m.flowSel+1:]...)
		m.clampFlows()
		m.tr.info("stopped waiting for the flow on " + f.req.Report.Site())
		if m.legacyWaiting[f.req.ElicitationID] {
			m.legacyWaiting = nil
			m.tr.notice("the prompt that needed it will not be retried", false)
		}
	}
	return nil
}

// flowsView is the pending-flows panel.
func (m *Model) flowsView(width int) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.ModalTitle.Render("Pending URL flows") + th.Muted.Render(fmt.Sprintf(" · %d waiting for the agent", len(m.flows))) + "\n\n")
	for i, f := range m.flows {
		cur := "  "
		if i == m.flowSel {
			cur = th.Selected.Render("> ")
		}
		age := m.now().Sub(f.started).Round(time.Second)
		line := fmt.Sprintf("%s  %s  id %s  %s ago", th.Highlight.Render(f.req.Report.Site()), f.agent, ansi.Truncate(f.req.ElicitationID, 24, "…"), age)
		b.WriteString(cur + line + "\n")
	}
	b.WriteString("\n" + th.KeyHelp.Render("↑/↓ select · o reopen · c copy URL · d mark done · x cancel · esc close"))
	return th.Modal.Width(width).Render(b.String())
}
