package forms

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/elicit-dev/elicit/question/schema"
)

// formKeys is the form's own keys, as data: Update matches them and the key
// line is generated from them by bubbles/help. Text fields keep readline's
// keys (Ctrl+A/E/B/F/K/U/W/D, Alt+B/F/D), which bubbles' text input
// implements; none of these clashes with them. Ctrl+D declines only where
// it edits nothing: outside a text field, or in an empty one (readline's
// end of input).
type formKeys struct {
	Next, Prev, Review key.Binding // move between fields; Enter on the last reviews
	Send, Edit         key.Binding // on the review screen
	Decline, Cancel    key.Binding // each asks first when the user typed anything
	Format             key.Binding // shows the pattern a field must match
	Choose, Toggle     key.Binding // lists
	Filter             key.Binding // long lists
	NewLine            key.Binding // list fields: one value a line
	Yes, No            key.Binding // the discard question
	Scroll             key.Binding // the review, when it is taller than the screen
}

// defaultFormKeys returns the form's keys.
func defaultFormKeys() formKeys {
	return formKeys{
		Next:    key.NewBinding(key.WithKeys("tab", "enter"), key.WithHelp("tab/enter", "next")),
		Prev:    key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "back")),
		Review:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "review")),
		Send:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Edit:    key.NewBinding(key.WithKeys("shift+tab", "backspace"), key.WithHelp("shift+tab", "edit")),
		Decline: key.NewBinding(key.WithKeys("ctrl+x", "ctrl+d"), key.WithHelp("ctrl+x", "decline")),
		Cancel:  key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "cancel")),
		Format:  key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "show format")),
		Choose:  key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "choose")),
		Toggle:  key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "toggle")),
		Filter:  key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		NewLine: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "new line (on an empty line: next)")),
		Yes:     key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes, discard")),
		No:      key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n", "no, go back")),
		Scroll:  key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown", "home", "end"), key.WithHelp("↑/↓", "scroll")),
	}
}

// ShortHelp implements help.KeyMap: the keys that work everywhere.
func (k formKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Prev, k.Decline, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k formKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Next, k.Prev, k.Review},
		{k.Choose, k.Toggle, k.Filter, k.NewLine, k.Format},
		{k.Send, k.Edit, k.Scroll, k.Decline, k.Cancel},
	}
}

var _ help.KeyMap = formKeys{}

// helpKeys are the bindings the key line shows now.
func (m *Model) helpKeys() []key.Binding {
	k := m.keys
	if m.confirming {
		return []key.Binding{k.Yes, k.No}
	}
	if m.reviewing {
		return []key.Binding{k.Send, k.Edit, k.Scroll, k.Decline, k.Cancel}
	}
	next := k.Next
	if f := m.focusable(); len(f) == 0 || m.cur == f[len(f)-1] {
		next = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "review"))
	}
	out := []key.Binding{next, k.Prev}
	if m.cur != nil {
		f := m.cur.f
		switch {
		case f.Kind == schema.KindSelect, f.Kind == schema.KindBoolean && !f.Required && !f.HasDefault:
			out = append(out, k.Choose)
		case f.Kind == schema.KindMultiSelect:
			out = append(out, key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move")), k.Toggle)
		case f.Kind == schema.KindBoolean:
			out = append(out, key.NewBinding(key.WithKeys("left", "right", "y", "n"), key.WithHelp("←/→ y/n", "choose")))
		case f.Kind == schema.KindList:
			out = append(out, k.NewLine)
		}
		if len(f.Options) > filterAbove {
			out = append(out, k.Filter)
		}
		if f.Pattern != "" || f.Item != nil && f.Item.Pattern != "" {
			out = append(out, k.Format)
		}
	}
	return append(out, k.Decline, k.Cancel)
}

// newHelp is the key line's renderer, styled like the rest of the form.
func (m *Model) newHelp() help.Model {
	h := help.New()
	h.ShortSeparator = " · "
	h.Styles.ShortKey = m.th.Key
	h.Styles.ShortDesc = m.th.KeyHelp
	h.Styles.ShortSeparator = m.th.KeyHelp
	h.Styles.Ellipsis = m.th.KeyHelp
	return h
}
