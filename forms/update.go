package forms

import (
	"fmt"

	"charm.land/bubbles/v2/cursor"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
)

// Update handles one message. Keys within the grace period are dropped.
// Ctrl+X (and Ctrl+D where it edits no text) declines and Esc (or Ctrl+C)
// cancels, each asking first when the user has typed anything; Tab,
// Shift+Tab and Enter move between fields; Enter on the last field opens
// the review, where Enter submits and Shift+Tab or Backspace goes back to
// edit. Every other key goes to the focused field, so text fields keep
// readline's keys.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if m.done {
		return nil
	}
	// A steady cursor, as the prompt's: the fields' blink would redraw the
	// screen twice a second while nothing changes, and wake an idle program
	// (an attached client with a form open) for nothing. Focus and keys
	// still show the cursor; the blink's timer fires once and stops here.
	if _, blink := msg.(cursor.BlinkMsg); blink {
		return nil
	}
	if _, over := msg.(graceOver); over {
		return nil // the redraw shows the key help
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
	k := m.keys
	if m.confirming {
		switch {
		case key.Matches(kp, k.Yes):
			m.finish(m.pending, nil)
		case key.Matches(kp, k.No):
			m.confirming = false
		}
		return nil
	}
	switch {
	case kp.String() == "ctrl+d" && !m.reviewing && m.cur != nil && m.cur.takesText() && m.cur.text != "":
		return m.toWidget(kp) // readline: delete the character under the cursor
	case key.Matches(kp, k.Decline):
		m.ask(question.Decline)
		return nil
	case key.Matches(kp, k.Cancel):
		if kp.String() == "esc" && !m.reviewing && m.cur != nil && m.cur.isFiltering() {
			return m.toWidget(kp)
		}
		m.ask(question.Cancel)
		return nil
	}
	if m.reviewing {
		switch {
		case key.Matches(kp, k.Send):
			m.submit()
		case key.Matches(kp, k.Edit):
			m.reviewing = false
			if f := m.focusable(); len(f) > 0 {
				return m.focusOn(f[len(f)-1])
			}
		case key.Matches(kp, k.Scroll):
			m.scrollReview(kp.String())
		}
		return nil
	}
	if m.cur == nil { // a form with no fields: Enter reviews straight away
		if key.Matches(kp, k.Review) {
			m.reviewing = true
		}
		return nil
	}
	switch {
	case key.Matches(kp, k.Format):
		m.showPattern = !m.showPattern
		return nil
	case m.cur.f.Kind == schema.KindList && kp.String() == "enter" && !m.cur.atBlankLine():
		return m.toWidget(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}) // a new line
	case kp.String() == "enter" && m.cur.list != nil && m.cur.list.filtering && len(m.cur.list.shown) == 0:
		return m.toWidget(kp) // a filter matching nothing is dropped; nothing is picked
	case key.Matches(kp, k.Next, k.Prev):
		m.toWidget(kp) // lets a list commit its hovered (or filtered) choice; moving is ours
		m.cur.trimBlankLine()
		return m.move(kp.String())
	}
	cmd := m.toWidget(kp)
	m.recount()
	return cmd
}

// ask finishes with a (Decline or Cancel) at once on an untouched form,
// and otherwise asks first: what the user typed is not thrown away by one
// key.
func (m *Model) ask(a question.Action) {
	if m.Dirty() {
		m.confirming, m.pending = true, a
		return
	}
	m.finish(a, nil)
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
	slots := m.focusable()
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
	m.showPattern = false
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
		m.frame().Home()
		m.frame().EnsureVisible(2) // the first answer, under "Review your answers"
	}
	return nil
}

// scrollReview scrolls the review screen by a row, a page or to an end.
func (m *Model) scrollReview(k string) {
	switch f := m.frame(); k {
	case "up":
		f.Up()
	case "down":
		f.Down()
	default:
		f.ScrollKey(k)
	}
}

// content builds the typed content from valid entries.
func (m *Model) content() map[string]any {
	c := map[string]any{}
	for _, e := range m.slots() {
		v, err := e.value()
		switch {
		case err != nil:
		case v != nil:
			c[e.f.Key] = v
		case e.f.SendNull:
			c[e.f.Key] = nil // required but nullable: null, not left out
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
	m.finish(question.Accept, c)
}
