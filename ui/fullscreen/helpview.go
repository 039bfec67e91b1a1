package fullscreen

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/dialog"
	"github.com/elicit-dev/elicit/theme"
)

// helpModal is the keys screen (F1), generated from the keymap, in the
// scrolling frame: ↑/↓ and the page keys scroll it.
type helpModal struct {
	choiceModal
	groups [][]key.Binding
}

func newHelpModal(groups [][]key.Binding, th *theme.Theme) *helpModal {
	return &helpModal{groups: groups, choiceModal: choiceModal{title: "Keys", th: th}}
}

// The keys screen's keys: it scrolls, and Esc or Enter close it.
var (
	helpScroll = key.NewBinding(key.WithKeys("up", "down", "pgup", "ctrl+b", "pgdown", "ctrl+f", "home", "end"), key.WithHelp("↑/↓ pgup/pgdn", "scroll"))
	helpClose  = key.NewBinding(key.WithKeys("esc", "enter"), key.WithHelp("esc or enter", "closes"))
)

func (h *helpModal) keys() []key.Binding { return []key.Binding{helpScroll, helpClose} }

func (h *helpModal) update(msg tea.Msg) (action, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
	case key.Matches(k, helpClose):
		return closeAct{}, nil
	case k.String() == "up":
		h.frame().up()
	case k.String() == "down":
		h.frame().down()
	case key.Matches(k, helpScroll):
		h.frame().scrollKey(k.String())
	}
	return nil, nil
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
	for _, g := range h.groups {
		f.body = append(f.body, strings.Split(hm.FullHelpView([][]key.Binding{g}), "\n")...)
		f.body = append(f.body, "")
	}
	f.body = append(f.body,
		"In every text field: ctrl+a/e start/end, ctrl+k/u kill, ctrl+w word, alt+b/f word moves.",
		"A question that pops up while you type waits under the prompt: tab answers it.")
	f.keys = dialog.HelpLine(h.keys())
	return f.view(width, height)
}
