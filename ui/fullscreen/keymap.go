package fullscreen

import (
	"charm.land/bubbles/v2/key"
)

// keyMap is every global key of the full screen, as data: the key line,
// the keys screen and the handlers all read it; the source adds its own
// (agentKeys, the MCP panel's). Global keys avoid the readline keys
// (Ctrl+A/E/D/K/W/U/Y, Alt+B/F), which the prompt and every text field
// keep.
type keyMap struct {
	Answer                key.Binding
	PageUp, PageDown      key.Binding
	Thoughts, Flows, Help key.Binding
	Cancel, Suspend       key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Answer:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "answer the waiting question")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		Thoughts: key.NewBinding(key.WithKeys("alt+t"), key.WithHelp("alt+t", "show/fold thoughts")),
		Flows:    key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "pending URL flows")),
		Help:     key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", "keys")),
		Cancel:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "cancel the turn / quit (twice)")),
		Suspend:  key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend (fg resumes)")),
	}
}

// helpGroups are the keys screen's columns, as the source lays them out
// with its own keys and the screen's.
func (m *Model) helpGroups() [][]key.Binding {
	_, full := m.src.help()
	return full
}
