package fullscreen

import "github.com/elicit-dev/elicit/theme"

// promptKey is what an empty prompt's drawing depends on.
type promptKey struct {
	placeholder   string
	width, height int
	focused       bool
	th            *theme.Theme // a new theme is a new pointer
}

// promptCache keeps the empty prompt's drawing: the textarea draws its
// placeholder through lipgloss on every frame, and during a flood, with
// nothing typed, that was a seventh of the process's CPU.
type promptCache struct {
	key promptKey
	s   string
	ok  bool
}

// promptView is the prompt as the textarea draws it, reused while it is
// empty and nothing it depends on changed.
func (m *agentPanel) promptView() string {
	if m.input.Value() != "" {
		return m.input.View()
	}
	k := promptKey{m.input.Placeholder, m.input.Width(), m.input.Height(), m.input.Focused(), m.th}
	if c := &m.emptyPrompt; c.ok && c.key == k {
		return c.s
	}
	s := m.input.View()
	m.emptyPrompt = promptCache{key: k, s: s, ok: true}
	return s
}
