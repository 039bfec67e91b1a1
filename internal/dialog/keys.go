package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// A dialog's keys are data: the bindings it acts on, which also draw its
// help line (HelpLine), and from which Uses derives which keys it takes.
// A text key that none of them takes is the user typing somewhere else:
// the full screen hands it back to the prompt (ui/internal/focus), so no
// dialog keeps a hand-written list of the keys it uses.

// textKey matches no key press: Text stands for every text key.
const textKey = "\x00text"

// Text is the binding of a dialog whose fields take what is typed (a
// form, a masked field): every text key is its own.
var Text = key.NewBinding(key.WithKeys(textKey))

// Scroll is the frame's scrolling keys (ScrollKey), for a dialog's
// bindings and help line.
var Scroll = key.NewBinding(key.WithKeys("pgup", "ctrl+b", "pgdown", "ctrl+f", "home", "end"), key.WithHelp("pgup/pgdn", "scroll"))

// Uses says whether k means something to a dialog with these bindings:
// a key that is not text always does (arrows, Enter, Esc, control keys),
// a text key only when a binding takes it.
func Uses(k tea.KeyPressMsg, keys []key.Binding) bool {
	if k.Text == "" {
		return true
	}
	for _, b := range keys {
		if key.Matches(k, b) || b.Enabled() && len(b.Keys()) == 1 && b.Keys()[0] == textKey {
			return true
		}
	}
	return false
}

// HelpLine is the help of the enabled bindings that have some, in order:
// "key what · key what".
func HelpLine(keys []key.Binding) string {
	var parts []string
	for _, b := range keys {
		h := b.Help()
		if !b.Enabled() || h.Key == "" {
			continue
		}
		if h.Desc == "" {
			parts = append(parts, h.Key)
		} else {
			parts = append(parts, h.Key+" "+h.Desc)
		}
	}
	return strings.Join(parts, " · ")
}
