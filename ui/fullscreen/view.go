package fullscreen

import (
	"fmt"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/ui/internal/say"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// View draws the screen: transcript, then the front modal or the flows
// panel or the prompt, then the status bar.
func (m *Model) View() tea.View {
	if m.quitting {
		v := tea.NewView("")
		v.AltScreen = true
		return v
	}
	w := max(20, m.width)
	if f, ok := m.queue.front().(interface{ fullScreen() bool }); ok && m.arb.Focused && f.fullScreen() {
		// A view of its own, the whole terminal (the QR code over SSH).
		v := tea.NewView(f.(modal).view(w, max(1, m.height)))
		v.AltScreen, v.MouseMode, v.WindowTitle, v.ReportFocus = true, tea.MouseModeCellMotion, m.windowTitle(), true
		return v
	}
	bottom := m.bottomView(w)
	status := m.statusView(w)
	th := max(1, m.height-lipgloss.Height(bottom)-1)
	body, off := m.tr.viewHold(w, th, m.scroll, m.flushing, m.now().Sub(m.eventsAt) < busyFor)
	m.scroll = off
	v := tea.NewView(body + "\n" + bottom + "\n" + status)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = m.windowTitle()
	v.ReportFocus = true
	return v
}

// transcriptHeight is an estimate used for paging.
func (m *Model) transcriptHeight() int { return max(1, m.height-6) }

func (m *Model) bottomView(w int) string {
	maxH := max(6, m.height*3/4)
	if m.height < 30 { // a short screen: the dialog first, one transcript row
		maxH = max(6, m.height-2)
	}
	f := m.queue.front()
	if f != nil && m.arb.Focused {
		return clampHeight(f.view(w, maxH), maxH)
	}
	if m.showFlows {
		return clampHeight(m.flowsView(w, maxH), maxH)
	}
	rule := m.th.Border.Render(strings.Repeat("─", w))
	if hints := m.hintsView(w); hints != "" {
		rule = hints + "\n" + rule
	}
	view := rule + "\n" + m.promptView()
	if f != nil {
		view += "\n" + m.dockView(f, w)
	}
	return view
}

// dockView is the line under the prompt that announces a question which
// waits while the user types: who asks what, the key that answers it, and
// how many wait. When it does not fit, the key comes first, so a narrow
// screen cuts the text, never the key.
func (m *Model) dockView(f modal, w int) string {
	th := m.th
	who, what, tool := "elicit", "a question", ""
	if q := f.question(); q != nil {
		who, what, tool = m.agent, asking(q), q.From.Tool
	} else if c, ok := f.(interface{ heading() string }); ok {
		what = c.heading() // elicit's own dialog: it names itself
	}
	text := who + " asks " + what
	var more []string
	if tool != "" {
		more = append(more, "for "+tool)
	}
	if n := len(m.queue.items); n > 1 {
		more = append(more, fmt.Sprintf("%d waiting", n))
	}
	tail := ""
	for _, x := range more {
		tail += th.Muted.Render(" · " + x)
	}
	line := th.Warning.Render("⚑ "+text) + th.Muted.Render(" · ") + th.Key.Render("tab") + th.Muted.Render(" to answer") + tail
	if ansi.StringWidth(line) <= w {
		return line
	}
	head := th.Warning.Render("⚑ ") + th.Key.Render("tab") + th.Muted.Render(" to answer · ")
	return ansi.Truncate(head+th.Warning.Render(text)+tail, w, "…")
}

// asking is what a question asks, for the line that announces it.
func asking(q *question.Question) string {
	if q.Kind == question.URL {
		return "to open a URL"
	}
	return "a " + q.Kind.String() + " question"
}

// clampHeight keeps a modal within h rows. Every dialog fits the height
// it is given (the scrolling frame sees to it), so this is a last guard:
// it keeps the top (the border and the title with who asks) and the end
// (the keys), and drops rows from the middle.
func clampHeight(s string, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= h {
		return s
	}
	top := min(2, h/2)
	return strings.Join(append(lines[:top:top], lines[len(lines)-(h-top):]...), "\n")
}

func (m *Model) statusView(w int) string {
	th := m.th
	sep := th.Subtle.Render(" · ")
	name := m.agent
	if m.version != "" {
		name += " " + m.version
	}
	parts := []string{th.StatusAccent.Render(name)}
	if m.title != "" {
		parts = append(parts, th.StatusItem.Render(sanitizeSummary(m.title, 30)))
	}
	for _, kind := range []string{acpconn.KindMode, acpconn.KindModel} {
		if sel, ok := m.session.Selector(kind); ok {
			parts = append(parts, th.StatusItem.Render(kind+" "+sel.CurrentName()))
		}
	}
	if u := usageText(m.usage); u != "" {
		parts = append(parts, th.Muted.Render(u))
	}
	switch {
	case m.signingIn():
		parts = append(parts, th.Warning.Render("sign-in needed"))
	case m.rc.active:
		parts = append(parts, th.Warning.Render(fmt.Sprintf("⟳ reconnecting %d/%d", m.rc.attempt, reconnectAttempts)))
	case m.connState == connStarting:
		stage, _ := m.stage.Load().(string)
		el := m.now().Sub(m.startedAt).Round(time.Second)
		parts = append(parts, th.Info.Render(fmt.Sprintf("%s starting %s… %s · %s", m.spin.View(), m.agent, stage, el)))
	case m.connState == connGone && m.exited != nil:
		parts = append(parts, th.Danger.Render("agent exited · ctrl+r restarts"))
	case m.connState == connGone:
		parts = append(parts, th.Danger.Render("no session · ctrl+r restarts"))
	case m.turn != turnIdle && m.waitingForUser():
		// The agent waits on the user: no spinner, no clock (nothing
		// redraws), and short, so the question count after it fits 60
		// columns.
		parts = append(parts, th.Info.Render("⏸ waiting"))
	case m.turn != turnIdle:
		el := m.now().Sub(m.turnStarted).Round(100 * time.Millisecond)
		parts = append(parts, th.Info.Render(fmt.Sprintf("%s %s %s", m.spin.View(), m.turn, el)))
	default:
		parts = append(parts, th.Success.Render(m.turn.String()))
	}
	if n := m.pendingRequests(); n > 0 {
		parts = append(parts, th.Warning.Render(say.Plural(n, "question", "questions")))
	}
	if n := len(m.core.Flows()); n > 0 {
		parts = append(parts, th.Warning.Render(say.Plural(n, "URL flow", "URL flows")+" ("+m.keys.Flows.Help().Key+")"))
	}
	if m.core.Paused() {
		parts = append(parts, th.Warning.Render("questions paused"))
	}
	if m.scroll > 0 {
		back := " (end returns)"
		if m.queue.front() != nil && m.arb.Focused || m.input.Value() != "" {
			back = " (pgdn returns)" // End is the dialog's or the prompt's
		}
		parts = append(parts, th.Muted.Render(fmt.Sprintf("↑%d", m.scroll)+back))
	}
	left := strings.Join(parts, sep)
	help := th.KeyHelp.Render(m.keyLine())
	if ansi.StringWidth(left)+2+ansi.StringWidth(help) <= w {
		return left + strings.Repeat(" ", w-ansi.StringWidth(left)-ansi.StringWidth(help)) + help
	}
	if m.armed.what != "" && ansi.StringWidth(help)+12 <= w {
		// What the next Ctrl+C does wins over the rest of the bar.
		left = ansi.Truncate(left, w-ansi.StringWidth(help)-2, "…")
		return left + strings.Repeat(" ", w-ansi.StringWidth(left)-ansi.StringWidth(help)) + help
	}
	return ansi.Truncate(left, w, "…")
}

// pendingRequests counts the agent's questions waiting for the user (not
// elicit's own dialogs).
func (m *Model) pendingRequests() int {
	n := 0
	for _, md := range m.queue.items {
		if md.question() != nil {
			n++
		}
	}
	return n
}

// keyLine is the status bar's key help: what the next Ctrl+C does when
// one is armed, else the keymap's short help.
func (m *Model) keyLine() string {
	if m.armed.what != "" && m.now().Sub(m.armed.at) < confirmWindow {
		if m.armed.what == "quit" {
			return "ctrl+c again quits"
		}
		return "ctrl+c again clears the prompt"
	}
	var parts []string
	for _, b := range m.keys.ShortHelp() {
		parts = append(parts, b.Help().Key+" "+b.Help().Desc)
	}
	return strings.Join(parts, " · ")
}

// truncateLine cuts a styled line to width.
func truncateLine(s string, width int) string { return ansi.Truncate(s, width, "…") }

func sanitizeSummary(s string, n int) string { return sanitize.Summary(s, n) }

// usageText is the context used of its size and the cost so far, short:
// "13k/1M ctx · 0.39 USD".
func usageText(u acpconn.Usage) string {
	var parts []string
	if u.Size > 0 {
		parts = append(parts, fmt.Sprintf("%s/%s ctx", count(u.Used), count(u.Size)))
	}
	if u.Cost != "" {
		parts = append(parts, u.Cost)
	}
	return strings.Join(parts, " · ")
}

// count writes a token count the short way: 950, 13k, 1.2M.
func count(n int) string {
	switch {
	case n >= 1_000_000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e6), ".0") + "M"
	case n >= 10_000:
		return fmt.Sprintf("%dk", n/1000)
	case n >= 1000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e3), ".0") + "k"
	}
	return fmt.Sprint(n)
}
