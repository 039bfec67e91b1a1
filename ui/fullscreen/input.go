package fullscreen

import (
	"charm.land/bubbles/v2/textarea"

	"github.com/elicit-dev/elicit/theme"
)

// newInput builds the prompt: it grows with its text up to a few lines;
// Enter is handled by the root (send), Shift+Enter or Ctrl+J add a line.
func newInput(th *theme.Theme) textarea.Model {
	ta := textarea.New()
	ta.Placeholder = "Ask the agent…"
	ta.ShowLineNumbers = false
	ta.Prompt = "› "
	ta.CharLimit = 0
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = 8
	ta.KeyMap.InsertNewline.SetEnabled(false)
	ta.SetStyles(inputStyles(th))
	return ta
}

func inputStyles(th *theme.Theme) textarea.Styles {
	s := textarea.DefaultStyles(th.IsDark)
	s.Focused.Prompt = th.Accent
	s.Focused.Placeholder = th.Muted
	s.Focused.CursorLine = s.Focused.CursorLine.UnsetBackground()
	s.Focused.Text = th.Base
	// A steady cursor: a blinking one redraws the whole screen twice a
	// second while nothing else changes.
	s.Cursor.Blink = false
	return s
}
