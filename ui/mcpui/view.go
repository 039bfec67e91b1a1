package mcpui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// View draws the screen: the header, the main area (the front question
// when it has the keys, else the flows panel, the arguments, or the lists
// over the transcript), the running call, the docked question and the
// status bar.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "elicit mcp · " + m.server
	if n := len(m.queue); n > 0 {
		v.WindowTitle = fmt.Sprintf("(%d) %s", n, v.WindowTitle)
	}
	return v
}

func (m *Model) render() string {
	w, h := max(m.w, 20), max(m.h, 6)
	top := []string{m.header(w)}
	var bottom []string
	if m.call != nil {
		bottom = append(bottom, m.progressLine(w))
	}
	if f := m.front(); f != nil && !m.arb.Focused {
		who := m.server
		if f.question() == nil {
			who = "elicit"
		}
		bottom = append(bottom, m.th.Warning.Render(ansi.Truncate(fmt.Sprintf("⚑ %s asks %s · tab to answer", who, f.kind()), w, "…")))
	}
	bottom = append(bottom, m.statusBar(w))
	mainH := max(h-len(top)-len(bottom), 1)
	var main string
	switch {
	case m.front() != nil && m.arb.Focused:
		main = m.front().view(w, mainH)
	case m.showFlows:
		main = m.flowsView(w, mainH)
	case m.pane == paneArgs:
		main = m.args.view(w, mainH)
	case m.pane == paneEditor:
		main = m.editor.view(w, mainH)
	default:
		main = m.listView(w, mainH)
	}
	lines := fit(strings.Split(main, "\n"), w, mainH)
	return strings.Join(append(append(top, lines...), bottom...), "\n")
}

// fit makes lines exactly height rows, each cut to width.
func fit(lines []string, width, height int) []string {
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "")
		}
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return lines
}

func (m *Model) header(w int) string {
	th := m.th
	s := th.Title.Render("elicit mcp") + th.Muted.Render(" · ") + th.Bold.Render(m.server)
	if m.version != "" {
		s += th.Muted.Render(" " + m.version)
	}
	switch {
	case m.connErr != "":
		s += th.Danger.Render(" · not connected")
	case m.exited:
		s += th.Danger.Render(" · exited")
	case m.conn == nil:
		s += th.Muted.Render(" · connecting…")
	}
	if n := len(m.core.Flows()); n > 0 {
		s += th.Warning.Render(fmt.Sprintf(" · %d pending flow%s", n, plural(n)))
	}
	return ansi.Truncate(s, w, "…")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// progressLine is the running call: its time, a bar when the server
// reports progress, and how to cancel. The bar is drawn by hand: bubbles'
// progress bar animates (frames of its own) and this needs one line.
func (m *Model) progressLine(w int) string {
	th := m.th
	c := m.call
	secs := m.now().Sub(c.started).Seconds()
	s := fmt.Sprintf("⟳ %s %.1fs", c.spec.tool.Display(), secs)
	if c.stopping {
		return th.Warning.Render(ansi.Truncate(s+" · cancelling…", w, "…"))
	}
	if c.hasProg {
		p := c.progress
		if p.Total > 0 {
			frac := min(max(p.Progress/p.Total, 0), 1)
			barW := min(max(w/4, 10), 30)
			fill := int(frac * float64(barW))
			s += " " + strings.Repeat("█", fill) + strings.Repeat("░", barW-fill) + fmt.Sprintf(" %d%%", int(frac*100))
		} else {
			s += fmt.Sprintf(" %g", p.Progress)
		}
		if p.Message != "" {
			s += " " + p.Message
		}
	}
	s += " · esc cancels"
	if m.next != nil {
		s += " · then " + m.next.tool.Display()
	}
	return th.Accent.Render(ansi.Truncate(s, w, "…"))
}

func (m *Model) statusBar(w int) string {
	var keys []string // the longest that fits is shown
	switch {
	case m.front() != nil && m.arb.Focused:
		keys = []string{"the question has the keys"}
	case m.showFlows:
		keys = []string{"pending flows"}
	case m.pane == paneArgs:
		keys = []string{"the tool's arguments · enter next · ctrl+x/esc back", "enter next · esc back"}
	case m.pane == paneEditor:
		keys = []string{"ctrl+s check and run · esc back"}
	default:
		keys = []string{"↑/↓ pick · enter run · ←/→ lists · pgup/pgdn scroll · ctrl+g flows · ctrl+c×2 quit",
			"↑/↓ enter run · ←/→ lists · ctrl+g flows · ctrl+c×2 quit", "enter run · ctrl+c×2 quit"}
	}
	k := keys[len(keys)-1]
	for _, c := range keys {
		if ansi.StringWidth(c) <= w {
			k = c
			break
		}
	}
	return m.th.StatusBar.Render(ansi.Truncate(k, w, "…"))
}

// listView is the lists (tools, prompts, resources) over the transcript.
func (m *Model) listView(w, h int) string {
	th := m.th
	names := []string{"Tools", "Prompts", "Resources"}
	var tabs []string
	for i, n := range names {
		label := fmt.Sprintf("%s (%d)", n, m.count(tab(i)))
		if tab(i) == m.tab {
			label = th.Selected.Render("[" + label + "]")
		} else {
			label = th.Muted.Render(" " + label + " ")
		}
		tabs = append(tabs, label)
	}
	lines := []string{strings.Join(tabs, " ")}
	n := m.count(m.tab)
	listH := min(max(n, 1), max((h-1)/2-1, 1))
	sel := m.sel[m.tab]
	off := m.listOff[m.tab]
	if sel < off {
		off = sel
	}
	if sel >= off+listH {
		off = sel - listH + 1
	}
	m.listOff[m.tab] = off
	if n == 0 {
		what := map[tab]string{tabTools: "no tools", tabPrompts: "no prompts", tabResources: "no resources"}[m.tab]
		if m.conn == nil {
			what = "…"
		}
		lines = append(lines, th.Muted.Render("  "+what))
	}
	nameW := min(max(w/3, 12), 36)
	for i := off; i < min(off+listH, n); i++ {
		name, title := m.item(m.tab, i)
		cur := "  "
		st := th.Base
		if i == sel {
			cur, st = th.Selected.Render("› "), th.Selected
		}
		row := cur + st.Render(padTo(ansi.Truncate(name, nameW, "…"), nameW)) + " " + th.Muted.Render(title)
		lines = append(lines, ansi.Truncate(row, w, "…"))
	}
	if desc := m.description(); desc != "" && h-len(lines) > 6 {
		for _, l := range strings.Split(wrapText(desc, w-2), "\n")[:min(2, strings.Count(wrapText(desc, w-2), "\n")+1)] {
			lines = append(lines, th.Subtle.Render("  "+l))
		}
	}
	lines = append(lines, th.Border.Render(strings.Repeat("─", w)))
	rest := max(h-len(lines), 0)
	lines = append(lines, m.tr.render(th, w, rest)...)
	return strings.Join(lines, "\n")
}

func padTo(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// item is row i of list t: a name and a title.
func (m *Model) item(t tab, i int) (string, string) {
	switch t {
	case tabTools:
		x := m.tools[i]
		return sanitize.Line(x.Name), x.Title
	case tabPrompts:
		x := m.prompts[i]
		return x.Name, x.Title
	}
	x := m.res[i]
	title := x.Title
	if title == "" {
		title = x.URI
	}
	return x.Name, title
}

// description is the selected item's description, on one paragraph.
func (m *Model) description() string {
	i := m.sel[m.tab]
	if i >= m.count(m.tab) {
		return ""
	}
	var d string
	switch m.tab {
	case tabTools:
		d = m.tools[i].Description
	case tabPrompts:
		d = m.prompts[i].Description
	default:
		d = m.res[i].Description
	}
	return strings.Join(strings.Fields(d), " ")
}
