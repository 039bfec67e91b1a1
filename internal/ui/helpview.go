package ui

import (
	"charm.land/bubbles/v2/help"

	"github.com/elicit-dev/elicit/internal/theme"
)

// helpModal is the keys screen (F1), generated from the keymap.
type helpModal struct {
	choiceModal
	keys keyMap
}

func newHelpModal(k keyMap, th *theme.Theme) *helpModal {
	return &helpModal{keys: k, choiceModal: choiceModal{title: "Keys", th: th}}
}

func (h *helpModal) view(width, _ int) string {
	hm := help.New()
	hm.ShowAll = true
	hm.SetWidth(width - 4)
	body := h.th.ModalTitle.Render("Keys") + "\n\n" + hm.View(h.keys) +
		"\n\nIn every text field: ctrl+a/e start/end, ctrl+k/u kill, ctrl+w word, alt+b/f word moves.\n" +
		"A question that pops up while you type waits under the prompt: tab answers it.\n\n" +
		h.th.KeyHelp.Render("esc or enter closes")
	return h.th.Modal.Width(width).Render(body)
}
