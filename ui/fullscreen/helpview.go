package fullscreen

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/theme"
)

// helpModal is the keys screen (F1), generated from the keymap, in the
// scrolling frame: ↑/↓ and the page keys scroll it.
type helpModal struct {
	choiceModal
	keys keyMap
}

func newHelpModal(k keyMap, th *theme.Theme) *helpModal {
	return &helpModal{keys: k, choiceModal: choiceModal{title: "Keys", th: th}}
}

func (h *helpModal) update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch s := k.String(); {
		case s == "up":
			h.frame().up()
			return nil
		case s == "down":
			h.frame().down()
			return nil
		case h.frame().scrollKey(s):
			return nil
		}
	}
	return h.choiceModal.update(msg)
}

func (h *helpModal) view(width, height int) string {
	hm := help.New()
	hm.ShowAll = true
	hm.SetWidth(width - 4)
	f := h.frame()
	f.title, f.who = "Keys", "elicit"
	// One group under another: side by side, help cuts the groups that
	// do not fit the width.
	f.body = nil
	for _, g := range h.keys.FullHelp() {
		f.body = append(f.body, strings.Split(hm.FullHelpView([][]key.Binding{g}), "\n")...)
		f.body = append(f.body, "")
	}
	f.body = append(f.body,
		"In every text field: ctrl+a/e start/end, ctrl+k/u kill, ctrl+w word, alt+b/f word moves.",
		"A question that pops up while you type waits under the prompt: tab answers it.")
	f.keys = "↑/↓ pgup/pgdn scroll · esc or enter closes"
	return f.view(width, height)
}
