package forms

import (
	"errors"
	"strings"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/schema"
)

// These methods let a host that shares a form with others (elicit attach,
// elicit serve) read and set one field's draft from outside, and mark a
// field someone else is editing. They know no protocol: values are typed
// as Draft gives them.

// Focused is the key of the field that has the cursor ("" in the review,
// while confirming, or in a form without fields).
func (m *Model) Focused() string {
	if m.cur == nil || m.reviewing || m.confirming || m.done {
		return ""
	}
	return m.cur.f.Key
}

// Value is field key's draft as Draft gives it: its typed value when
// valid, the raw text when not, nil when empty.
func (m *Model) Value(key string) any {
	for _, e := range m.slots() {
		if e.f.Key == key {
			return e.draft()
		}
	}
	if e := m.entry(key); e != nil { // a companion not shown right now
		return e.draft()
	}
	return nil
}

// ErrNoField is returned by SetValue for a key the form does not have.
var ErrNoField = errors.New("no such field")

// SetValue replaces field key's draft with v (typed as Draft gives it: a
// string, json.Number, bool or []string; nil empties the field). Text
// for an "Other" companion also picks "Other" in its select. The field's
// widget is rebuilt around the new value; the field keeps the cursor if
// it had it. Call it only for a field the user is not typing in (see
// Focused): it replaces what is there.
func (m *Model) SetValue(key string, v any) error {
	e := m.entry(key)
	if e == nil {
		return ErrNoField
	}
	e.text, e.shown, e.raw, e.choice, e.picks, e.yes = "", "", "", "", nil, false
	switch x := v.(type) {
	case nil:
		e.prefillFrom(nil, false)
		if e.f.Kind == schema.KindSelect && !e.f.Required {
			e.choice = noAnswer
		}
	case string:
		if e.takesText() {
			e.text = x
			if e.f.Kind == schema.KindList {
				e.text = strings.Join(schema.Lines(x), "\n")
			}
		} else {
			e.prefillFrom(x, true)
		}
	case []string:
		if e.f.Kind == schema.KindList {
			e.text = strings.Join(x, "\n")
		} else {
			e.prefillFrom(x, true)
		}
	case bool:
		e.yes, e.choice = x, "false"
		if x {
			e.choice = "true"
		}
	default:
		if e.takesText() {
			e.text = defaultText(v)
		} else {
			e.prefillFrom(v, true)
		}
	}
	if e.companion && strings.TrimSpace(e.text) != "" {
		if owner := m.ownerOf(e); owner != e && !owner.otherPicked() {
			owner.choice = otherChoice
			if owner.f.OtherValue != "" {
				owner.choice = owner.f.OtherValue
			}
			m.rebuild(owner)
		}
	}
	e.err = nil
	m.rebuild(e)
	return nil
}

// rebuild drops e's widget so it is built anew around its values; the
// focused one is built and focused at once.
func (m *Model) rebuild(e *entry) {
	if !e.built() {
		return
	}
	e.widget, e.list, e.width, e.height = nil, nil, 0, 0
	if e == m.cur {
		m.ready(e)
		e.focus()
	}
}

// entry finds the entry (or companion) of a key.
func (m *Model) entry(key string) *entry {
	for _, e := range m.entries {
		if e.f.Key == key {
			return e
		}
		if e.other != nil && e.other.f.Key == key {
			return e.other
		}
	}
	return nil
}

// SetEditing marks field key as being edited by who ("" clears the mark):
// the form shows "✎ who" beside the field's title.
func (m *Model) SetEditing(key, who string) {
	if m.editing == nil {
		m.editing = map[string]string{}
	}
	if who == "" {
		delete(m.editing, key)
		return
	}
	m.editing[key] = sanitize.Line(who)
}

// editingMark is the mark beside a field's title, "" when none.
func (m *Model) editingMark(key string) string {
	if who := m.editing[key]; who != "" {
		return " ✎ " + who
	}
	return ""
}
