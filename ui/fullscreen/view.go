package fullscreen

import (
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/ui/internal/say"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

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
	top, head := m.src.header(w), 0
	if top != "" {
		top, head = top+"\n", lipgloss.Height(top)
	}
	bottom := m.bottomView(w, head)
	status := m.statusView(w)
	th := max(1, m.height-lipgloss.Height(bottom)-1-head)
	body, off := m.tr.viewHold(w, th, m.scroll, m.flushing, m.now().Sub(m.eventsAt) < busyFor)
	m.scroll = off
	v := tea.NewView(top + body + "\n" + bottom + "\n" + status)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = m.windowTitle()
	v.ReportFocus = true
	return v
}

// transcriptHeight is an estimate used for paging.
func (m *Model) transcriptHeight() int { return max(1, m.height-6) }

// bottomView is what is under the transcript: the question that has the
// keys, or the flows panel, or the source's panel (the prompt, the tool
// list) with the line of a docked question; head rows are taken above.
func (m *Model) bottomView(w, head int) string {
	maxH := max(6, m.height*3/4)
	if m.height < 30 { // a short screen: the dialog first, one transcript row
		maxH = max(6, m.height-2-head)
	}
	f := m.queue.front()
	if f != nil && m.arb.Focused {
		return clampHeight(f.view(w, maxH), maxH)
	}
	if m.showFlows {
		return clampHeight(m.flowsView(w, maxH), maxH)
	}
	if f == nil {
		return m.src.panel(w, maxH)
	}
	return m.src.panel(w, maxH-1) + "\n" + m.dockView(f, w)
}

// dockView is the line under the prompt that announces a question which
// waits while the user types: who asks what, the key that answers it, and
// how many wait. When it does not fit, the key comes first, so a narrow
// screen cuts the text, never the key.
func (m *Model) dockView(f modal, w int) string {
	th := m.th
	who, what, tool := "elicit", "a question", ""
	if q := f.question(); q != nil {
		who, what, tool = m.whoOf(q), asking(q), q.From.Tool
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
	name := m.name
	if m.version != "" {
		name += " " + m.version
	}
	parts := append([]string{th.StatusAccent.Render(name)}, m.src.status()...)
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
		back := " (pgdn returns)" // End is the dialog's, the prompt's or the list's
		if e, ok := m.src.(interface{ endScrolls() bool }); ok && e.endScrolls() && (m.queue.front() == nil || !m.arb.Focused) {
			back = " (end returns)"
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
// elicit's own dialogs), open or listed.
func (m *Model) pendingRequests() int {
	if _, ok := m.src.(lister); ok {
		return len(m.core.Questions()) // the inbox: every question of its list
	}
	n := 0
	for _, md := range m.queue.items {
		if md.question() != nil {
			n++
		}
	}
	return n
}

// keyLine is the status bar's key help: what the next Ctrl+C does when
// one is armed, else the source's few keys.
func (m *Model) keyLine() string {
	if m.armed.what != "" && m.now().Sub(m.armed.at) < confirmWindow {
		if m.armed.what == "quit" {
			return "ctrl+c again quits"
		}
		return "ctrl+c again clears the prompt"
	}
	short, _ := m.src.help()
	var parts []string
	for _, b := range short {
		parts = append(parts, b.Help().Key+" "+b.Help().Desc)
	}
	return strings.Join(parts, " · ")
}

// truncateLine cuts a styled line to width.
func truncateLine(s string, width int) string { return ansi.Truncate(s, width, "…") }

func sanitizeSummary(s string, n int) string { return sanitize.Summary(s, n) }
