package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// View draws the screen: transcript, then the front modal or the flows
// panel or the prompt, then the status bar.
func (m *Model) View() tea.View {
	defer guardPanic()
	if m.quitting {
		v := tea.NewView("")
		v.AltScreen = true
		return v
	}
	w := max(20, m.width)
	bottom := m.bottomView(w)
	status := m.statusView(w)
	th := max(1, m.height-lipgloss.Height(bottom)-1)
	body, off := m.tr.viewHold(w, th, m.scroll, m.flushing)
	m.scroll = off
	v := tea.NewView(body + "\n" + bottom + "\n" + status)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "elicit · " + m.agent
	return v
}

// transcriptHeight is an estimate used for paging.
func (m *Model) transcriptHeight() int { return max(1, m.height-6) }

func (m *Model) bottomView(w int) string {
	maxH := max(6, m.height*3/4)
	if f := m.queue.front(); f != nil {
		return clampHeight(f.view(w, maxH), maxH)
	}
	if m.showFlows {
		return m.flowsView(w)
	}
	rule := m.th.Border.Render(strings.Repeat("─", w))
	if hints := m.hintsView(w); hints != "" {
		rule = hints + "\n" + rule
	}
	return rule + "\n" + m.input.View()
}

// clampHeight keeps a modal within the screen, showing its end (where the
// help and the focused field are) when it is too tall.
func clampHeight(s string, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= h {
		return s
	}
	return strings.Join(lines[len(lines)-h:], "\n")
}

func (m *Model) statusView(w int) string {
	th := m.th
	sep := th.Subtle.Render(" · ")
	name := m.agent
	if m.version != "" {
		name += " " + m.version
	}
	parts := []string{th.StatusAccent.Render(name)}
	if m.session.Mode != "" {
		parts = append(parts, th.StatusItem.Render("mode "+m.modeName()))
	}
	switch {
	case m.connState == connStarting:
		parts = append(parts, th.Info.Render(m.spin.View()+" starting"))
	case m.connState == connGone && m.exited != nil:
		parts = append(parts, th.Danger.Render("agent exited · ctrl+r restarts"))
	case m.connState == connGone:
		parts = append(parts, th.Danger.Render("no session · ctrl+r restarts"))
	case m.turn != turnIdle:
		el := m.now().Sub(m.turnStarted).Round(100 * time.Millisecond)
		parts = append(parts, th.Info.Render(fmt.Sprintf("%s %s %s", m.spin.View(), m.turn, el)))
	default:
		parts = append(parts, th.Success.Render(m.turn.String()))
	}
	if n := m.pendingRequests(); n > 0 {
		parts = append(parts, th.Warning.Render(plural(n, "question", "questions")))
	}
	if n := len(m.flows); n > 0 {
		parts = append(parts, th.Warning.Render(plural(n, "URL flow", "URL flows")+" (ctrl+p)"))
	}
	if m.conn != nil && m.conn.ElicitationsPaused() {
		parts = append(parts, th.Warning.Render("elicitations paused"))
	}
	if m.scroll > 0 {
		parts = append(parts, th.Muted.Render(fmt.Sprintf("↑%d (end returns)", m.scroll)))
	}
	left := strings.Join(parts, sep)
	help := th.KeyHelp.Render("ctrl+c cancel/quit · ctrl+o settings · ctrl+t thoughts · pgup scroll")
	if ansi.StringWidth(left)+2+ansi.StringWidth(help) <= w {
		return left + strings.Repeat(" ", w-ansi.StringWidth(left)-ansi.StringWidth(help)) + help
	}
	return ansi.Truncate(left, w, "…")
}

// pendingRequests counts the agent's questions waiting for the user (not
// elicit's own dialogs).
func (m *Model) pendingRequests() int {
	n := 0
	for _, md := range m.queue.items {
		if md.reqID() != 0 {
			n++
		}
	}
	return n
}

// truncateLine cuts a styled line to width.
func truncateLine(s string, width int) string { return ansi.Truncate(s, width, "…") }

func (m *Model) modeName() string {
	for _, md := range m.session.Modes {
		if md.ID == m.session.Mode {
			return md.Name
		}
	}
	return m.session.Mode
}
