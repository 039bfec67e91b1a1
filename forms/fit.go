package forms

import (
	"strings"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/question/schema"
)

// minListRows is the fewest rows a list is made short to: the cursor's
// option and one on either side.
const minListRows = 3

// fitWidget draws the focused entry's widget in at most rows rows where it
// can: a list (select, multi-select, optional yes/no) is made shorter and
// scrolls inside itself, its cursor in view; other widgets are as tall as
// they are. rows <= 0 sets no limit beyond the list's own.
func (m *Model) fitWidget(e *entry, rows int) string {
	if !e.isList() {
		return e.view()
	}
	e.setHeight(0)
	v := e.view()
	if rows > 0 && lipgloss.Height(v) > rows {
		e.setHeight(max(rows, minListRows))
		v = e.view()
	}
	return v
}

// isList reports whether the entry's widget is a list of options.
func (e *entry) isList() bool {
	switch {
	case e.list != nil:
		return true
	case e.f.Kind == schema.KindSelect, e.f.Kind == schema.KindMultiSelect:
		return true
	case e.f.Kind == schema.KindBoolean:
		return !e.f.Required && !e.f.HasDefault
	}
	return false
}

// setHeight makes a list widget h rows tall (0: as tall as it wants).
func (e *entry) setHeight(h int) {
	if e.height == h {
		return
	}
	e.height = h
	switch {
	case e.list != nil:
		e.list.setRows(h - 1) // its status line
	case e.widget != nil:
		e.widget = e.widget.WithHeight(h)
	}
}

// multiItemsFor is a multi-select's options with their labels wrapped to
// width (huh's MultiSelect, unlike its Select, does not wrap a long option:
// it clips it), each row after the first under the label's start.
func multiItemsFor(items []listItem, width int, th huh.Theme) []listItem {
	st := th.Theme(false).Focused
	w := width - st.Base.GetHorizontalFrameSize() - lipgloss.Width(st.MultiSelectSelector.String()) -
		max(lipgloss.Width(st.SelectedPrefix.String()), lipgloss.Width(st.UnselectedPrefix.String()))
	if w < 8 {
		return items
	}
	out := make([]listItem, len(items))
	for i, it := range items {
		out[i] = it
		if ansi.StringWidth(it.label) > w {
			out[i].label = strings.TrimRight(ansi.Wrap(it.label, w, " -"), " ")
		}
	}
	return out
}
