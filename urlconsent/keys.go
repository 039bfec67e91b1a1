package urlconsent

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/dialog"
)

// The screen's keys are data: Update acts on these bindings, the key lines
// are drawn from their help, and Keys gives a host those of the screen's
// state, from which Uses is derived (dialog.Uses).
var (
	keyChoose  = key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "choose"))
	keyPress   = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "press"))
	keyConfirm = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm"))
	keyGoBack  = key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "go back"))
	keyCopy    = key.NewBinding(key.WithKeys("c", "C"), key.WithHelp("c", "copy"))
	keyDecline = key.NewBinding(key.WithKeys("d", "D"), key.WithHelp("d", "decline"))
	keyScroll  = key.NewBinding(key.WithKeys("up", "down", "pgup", "ctrl+b", "pgdown", "ctrl+f", "home", "end"), key.WithHelp("↑/↓", "scroll"))
	keyCancel  = key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "cancel"))
	// In the QR view: back to the link, or copy the URL.
	keyQRBack = key.NewBinding(key.WithKeys("esc", "enter", "tab", "shift+tab", "q"), key.WithHelp("esc", "back to the link"))
	keyQRCopy = key.NewBinding(key.WithKeys("c", "C"), key.WithHelp("c", "copy the URL"))
)

// Keys are the keys the screen acts on as it is now, as data: the buttons'
// (←/→, Enter), c, d, the scroll keys and Esc; while it asks again about a
// high-severity URL, no letter; in the QR view, c and q.
func (c *Consent) Keys() []key.Binding {
	switch {
	case c.qr:
		return []key.Binding{keyQRBack, keyQRCopy}
	case c.confirming:
		return []key.Binding{keyChoose, keyConfirm, keyGoBack}
	}
	return []key.Binding{keyChoose, keyPress, keyCopy, keyDecline, keyScroll, keyCancel}
}

// Uses says whether key k means something to the screen as it is now: a
// key of Keys, and every key that is not text. Text it has no use for is
// the user typing elsewhere; a host can hand it back to where the user
// types instead of dropping it.
func (c *Consent) Uses(k tea.KeyPressMsg) bool { return dialog.Uses(k, c.Keys()) }
