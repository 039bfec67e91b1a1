package fullscreen

import (
	"charm.land/bubbles/v2/key"
)

// keyMap is every global key of the full screen, as data: the key line,
// the help screen and the handlers all read it. Global keys avoid the
// readline keys (Ctrl+A/E/D/K/W/U/Y, Alt+B/F), which the prompt and every
// text field keep.
type keyMap struct {
	Send, Newline, History, Complete, Mode   key.Binding
	Answer                                   key.Binding
	PageUp, PageDown, Bottom                 key.Binding
	Thoughts, Flows, Settings, Restart, Help key.Binding
	Cancel, Suspend                          key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Send:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:  key.NewBinding(key.WithKeys("shift+enter", "ctrl+j", "alt+enter"), key.WithHelp("shift+enter", "new line")),
		History:  key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "earlier prompts")),
		Complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete a command")),
		Mode:     key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "next mode")),
		Answer:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "answer the waiting question")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		Bottom:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "back to the bottom (empty prompt)")),
		Thoughts: key.NewBinding(key.WithKeys("alt+t"), key.WithHelp("alt+t", "show/fold thoughts")),
		Flows:    key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "pending URL flows")),
		Settings: key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "settings")),
		Restart:  key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "sessions: new, resume a past one, restart")),
		Help:     key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", "keys")),
		Cancel:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "cancel the turn / quit (twice)")),
		Suspend:  key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend (fg resumes)")),
	}
}

// ShortHelp is the key line of the status bar.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Cancel, k.Settings, k.Flows, k.Help}
}

// FullHelp is the help screen, in columns.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Send, k.Newline, k.History, k.Complete, k.Mode},
		{k.Answer, k.PageUp, k.PageDown, k.Bottom, k.Thoughts},
		{k.Flows, k.Settings, k.Restart, k.Cancel, k.Suspend, k.Help},
	}
}
