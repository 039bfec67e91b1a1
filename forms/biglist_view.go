package forms

import (
	"fmt"
	"strings"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// View draws the rows on screen and a status line: the cursor's place in
// the matches, how many there are of how many, and the filter.
func (l *bigList) View() string {
	st := &l.styles.Theme(false).Blurred
	if l.focused {
		st = &l.styles.Theme(false).Focused
	}
	selector := st.SelectSelector.String()
	if l.multi {
		selector = st.MultiSelectSelector.String()
	}
	selW := lipgloss.Width(selector)
	avail := max(l.width-st.Base.GetHorizontalFrameSize()-selW, 4)
	prefixW := 0
	if l.multi {
		prefixW = max(lipgloss.Width(st.SelectedPrefix.String()), lipgloss.Width(st.UnselectedPrefix.String()))
	}
	label := func(r int) []string {
		return strings.Split(ansi.Wrap(l.items[l.shown[r]].label, max(avail-prefixW, 4), " -"), "\n")
	}
	// The cursor's option shows whole: start lower while it would not.
	rows := 0
	for r := l.top; r <= l.cursor && r < len(l.shown); r++ {
		rows += len(label(r))
	}
	for rows > l.n() && l.top < l.cursor {
		rows -= len(label(l.top))
		l.top++
	}
	lines := make([]string, 0, l.n()+1)
	for r := l.top; r < len(l.shown) && len(lines) < l.n(); r++ {
		i := l.shown[r]
		var b strings.Builder
		if r == l.cursor {
			b.WriteString(selector)
		} else {
			b.WriteString(strings.Repeat(" ", selW))
		}
		style := st.UnselectedOption
		if l.multi {
			prefix := st.UnselectedPrefix.String()
			if l.picked[i] {
				prefix, style = st.SelectedPrefix.String(), st.SelectedOption
			}
			b.WriteString(prefix + strings.Repeat(" ", prefixW-lipgloss.Width(prefix)))
		} else if r == l.cursor {
			style = st.SelectedOption
		}
		for k, row := range label(r) {
			if k > 0 {
				if len(lines) == l.n() {
					break
				}
				b.Reset()
				b.WriteString(strings.Repeat(" ", selW+prefixW))
			}
			b.WriteString(style.Render(row))
			lines = append(lines, b.String())
		}
	}
	if len(l.shown) == 0 {
		lines = append(lines, st.Description.Render("no option matches"))
	}
	for len(lines) < l.n() {
		lines = append(lines, "")
	}
	return st.Base.Render(strings.Join(append(lines, l.status(st)), "\n"))
}

// status is the line under the rows.
func (l *bigList) status(st *huh.FieldStyles) string {
	var pos string
	switch {
	case len(l.shown) == 0:
		pos = fmt.Sprintf("0 of %d", len(l.items))
	case len(l.shown) == len(l.items):
		pos = fmt.Sprintf("%d of %d", l.cursor+1, len(l.items))
	default:
		pos = fmt.Sprintf("%d of %d matching (%d in all)", l.cursor+1, len(l.shown), len(l.items))
	}
	if l.multi {
		pos += fmt.Sprintf(" · %d picked", len(*l.picks))
	}
	var s string
	switch {
	case l.filtering:
		l.filter.SetWidth(min(ansi.StringWidth(l.filter.Value())+1, max(l.width/2, 10)))
		s = l.filter.View() + "  " + st.Description.Render(pos)
	case l.filter.Value() != "":
		s = st.Description.Render("/" + sanitize.Line(l.filter.Value()) + " · " + pos)
	default:
		s = st.Description.Render(pos)
	}
	return ansi.Truncate(s, max(l.width-st.Base.GetHorizontalFrameSize(), 4), "…")
}
