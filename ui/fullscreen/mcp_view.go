package fullscreen

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// header is the line over the transcript: the server, where the
// connection is, and the pending URL flows.
func (m *mcpPanel) header(w int) string {
	th := m.th
	s := th.Title.Render(m.program) + th.Muted.Render(" · ") + th.Bold.Render(m.name)
	if m.version != "" {
		s += th.Muted.Render(" " + m.version)
	}
	if st := m.state(); st != "" {
		s += th.Danger.Render(" · " + st)
	}
	if n := len(m.core.Flows()); n > 0 {
		s += th.Warning.Render(" · " + say.Plural(n, "pending flow", "pending flows"))
	}
	return ansi.Truncate(s, w, "…")
}

// state is where the connection is, "" once it is up.
func (m *mcpPanel) state() string {
	switch {
	case m.connErr != "":
		return "not connected"
	case m.exited:
		return "exited"
	case m.conn == nil:
		return "connecting…"
	}
	return ""
}

// status: ready, or where the connection is.
func (m *mcpPanel) status() []string {
	if st := m.state(); st != "" {
		return []string{m.th.Danger.Render(st)}
	}
	if m.call != nil {
		return []string{m.th.Info.Render(m.spin.View() + " calling")}
	}
	return []string{m.th.Success.Render("ready")}
}

// panel is the lists, the arguments form or the JSON editor, with the
// running call's line under it.
func (m *mcpPanel) panel(w, room int) string {
	var prog string
	if m.call != nil {
		prog = "\n" + m.progressLine(w)
		room--
	}
	room = max(room, 3)
	switch m.pane {
	case paneArgs:
		return clampHeight(m.args.view(w, room), room) + prog
	case paneEditor:
		return clampHeight(m.editor.view(w, room), room) + prog
	}
	return m.listView(w, room) + prog
}

// progressLine is the running call: its time, a bar when the server
// reports progress, and how to cancel. The bar is drawn by hand: bubbles'
// progress bar animates (frames of its own) and this needs one line.
func (m *mcpPanel) progressLine(w int) string {
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

// listView is the lists (tools, prompts, resources) under a rule, in at
// most h rows.
func (m *mcpPanel) listView(w, h int) string {
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
	lines := []string{th.Border.Render(strings.Repeat("─", w)), ansi.Truncate(strings.Join(tabs, " "), w, "…")}
	n := m.count(m.tab)
	desc := m.description()
	listH := min(max(n, 1), max(h-len(lines)-b2i(desc != "")*2, 1))
	sel, off := m.sel[m.tab], m.listOff[m.tab]
	off = min(max(off, sel-listH+1), sel)
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
		cur, st := "  ", th.Base
		if i == sel {
			cur, st = th.Selected.Render("› "), th.Selected
		}
		row := cur + st.Render(padTo(ansi.Truncate(name, nameW, "…"), nameW)) + " " + th.Muted.Render(title)
		lines = append(lines, ansi.Truncate(row, w, "…"))
	}
	if desc != "" && h-len(lines) >= 2 {
		wrapped := strings.Split(wrap(desc, w-2), "\n")
		for _, l := range wrapped[:min(2, len(wrapped), h-len(lines))] {
			lines = append(lines, th.Subtle.Render("  "+l))
		}
	}
	return strings.Join(lines[:min(len(lines), h)], "\n")
}

func padTo(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// item is row i of list t: a name and a title.
func (m *mcpPanel) item(t tab, i int) (string, string) {
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
func (m *mcpPanel) description() string {
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
