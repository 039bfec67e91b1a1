package forms

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/elicit-dev/elicit/internal/schema"
)

// Update handles one message. Keys within the grace period are dropped;
// Ctrl+D declines anywhere; Esc (or Ctrl+C) cancels, asking first when the
// user has typed anything; Tab, Shift+Tab and Enter move between fields;
// Enter on the last field opens the review, where Enter submits and
// Shift+Tab or Backspace goes back to edit.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if m.done {
		return nil
	}
	if _, paste := msg.(tea.PasteMsg); paste && (m.inGrace() || m.reviewing || m.confirming) {
		return nil
	}
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if m.cur != nil && !m.reviewing {
			m.ready(m.cur)
			return m.cur.update(msg)
		}
		return nil
	}
	if m.inGrace() {
		return nil
	}
	k := kp.String()
	if m.confirming {
		switch k {
		case "y", "Y":
			m.finish(Cancel, nil)
		case "n", "N", "esc":
			m.confirming = false
		}
		return nil
	}
	switch k {
	case "ctrl+d":
		m.finish(Decline, nil)
		return nil
	case "esc", "ctrl+c":
		if k == "esc" && !m.reviewing && m.cur != nil && m.cur.isFiltering() {
			return m.toWidget(kp)
		}
		if m.Dirty() {
			m.confirming = true
			return nil
		}
		m.finish(Cancel, nil)
		return nil
	}
	if m.reviewing {
		switch k {
		case "enter":
			m.submit()
		case "shift+tab", "backspace":
			m.reviewing = false
			s := m.slots()
			if len(s) > 0 {
				return m.focusOn(s[len(s)-1])
			}
		}
		return nil
	}
	if m.cur == nil { // a form with no fields: Enter reviews straight away
		if k == "enter" {
			m.reviewing = true
		}
		return nil
	}
	switch k {
	case "enter", "tab", "shift+tab":
		if m.cur.isFiltering() && k == "enter" {
			m.toWidget(kp)
			m.cur.filtering = false
			return nil
		}
		m.toWidget(kp) // lets a list commit its hovered choice; its NextField is ours to do
		m.cur.filtering = false
		return m.move(k)
	}
	if k == "/" && (m.cur.f.Kind == schema.KindMultiSelect) {
		m.cur.filtering = true
	}
	cmd := m.toWidget(kp)
	m.recount()
	return cmd
}

// recount keeps the "N fields need attention" line true as the user fixes
// fields: it counts the errors still shown, without validating anew.
func (m *Model) recount() {
	if m.problem == "" || m.reviewing {
		return
	}
	bad := 0
	for _, e := range m.entries {
		if e.err != nil {
			bad++
		}
	}
	switch bad {
	case 0:
		m.problem = ""
	case 1:
		m.problem = "1 field needs attention"
	default:
		m.problem = fmt.Sprintf("%d fields need attention", bad)
	}
}

// inGrace reports whether the form popped up too recently to take input.
func (m *Model) inGrace() bool { return m.now().Sub(m.opened) < m.grace }

// toWidget sends a key to the focused widget and drops huh's own field
// navigation, which the Model does itself.
func (m *Model) toWidget(msg tea.Msg) tea.Cmd {
	m.cur.err = nil // shown again on leaving the field if still wrong
	m.ready(m.cur)
	cmd := m.cur.update(msg)
	if m.cur.companion || m.cur.other == nil {
		return cmd
	}
	if !m.cur.otherPicked() {
		m.cur.other.err = nil
	}
	return cmd
}

// move leaves the focused field (showing its error, if any) and focuses the
// next or previous one; Enter on the last field opens the review.
func (m *Model) move(k string) tea.Cmd {
	from := m.cur
	if from.companion {
		m.ownerOf(from).check()
	} else {
		_, from.err = from.value()
	}
	slots := m.slots()
	i := m.index()
	switch {
	case k == "shift+tab":
		if i == 0 {
			return nil
		}
		i--
	case i == len(slots)-1:
		if k == "enter" {
			from.blur()
			return m.openReview()
		}
		return nil
	default:
		i++
	}
	from.blur()
	return m.focusOn(slots[i])
}

// focusOn makes e the focused entry, building its widget if need be.
func (m *Model) focusOn(e *entry) tea.Cmd {
	m.cur = e
	m.ready(e)
	return e.focus()
}

// ownerOf returns the select an "Other" companion belongs to, or e.
func (m *Model) ownerOf(e *entry) *entry {
	if !e.companion {
		return e
	}
	for _, o := range m.entries {
		if o.other == e {
			return o
		}
	}
	return e
}

// checkAll validates every field, records every error, and focuses the
// first bad one. It reports whether all are fine.
func (m *Model) checkAll() bool {
	var first *entry
	bad := 0
	for _, e := range m.entries {
		if !e.check() {
			bad++
			if first == nil {
				first = e
				if e.err == nil && e.other != nil {
					first = e.other
				}
			}
		}
	}
	if bad == 0 {
		m.problem = ""
		return true
	}
	m.problem = fmt.Sprintf("%d fields need attention", bad)
	if bad == 1 {
		m.problem = "1 field needs attention"
	}
	if m.cur != nil {
		m.cur.blur()
	}
	m.focusOn(first)
	return false
}

func (m *Model) openReview() tea.Cmd {
	if m.checkAll() {
		m.reviewing = true
	}
	return nil
}

// content builds the typed content from valid entries.
func (m *Model) content() map[string]any {
	c := map[string]any{}
	for _, e := range m.slots() {
		if v, err := e.value(); err == nil && v != nil {
			c[e.f.Key] = v
		}
	}
	return c
}

// submit re-checks everything and finishes with Accept, or goes back to
// the fields with every error shown.
func (m *Model) submit() {
	if !m.checkAll() {
		m.reviewing = false
		return
	}
	c := m.content()
	if err := m.schema.Check(c); err != nil {
		m.reviewing = false
		m.problem = err.Error()
		return
	}
	m.finish(Accept, c)
}
