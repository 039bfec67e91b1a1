package theme

import (
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// Huh returns the huh theme built from the same palette, so forms match the
// rest of the screen. The isDark argument huh passes is ignored in favour of
// the background the UI detected when the theme was built.
func (t *Theme) Huh() huh.Theme {
	return huh.ThemeFunc(func(bool) *huh.Styles { return t.huhStyles() })
}

func (t *Theme) huhStyles() *huh.Styles {
	s := huh.ThemeBase(t.IsDark)
	p := t.P
	if t.NoColor {
		s.Focused.Title = s.Focused.Title.Bold(true)
		s.Focused.FocusedButton = s.Focused.FocusedButton.UnsetForeground().UnsetBackground().Reverse(true)
		s.Focused.BlurredButton = s.Focused.BlurredButton.UnsetForeground().UnsetBackground()
		s.Focused.TextInput.Placeholder = lipgloss.NewStyle().Faint(true)
		s.Focused.SelectedPrefix = lipgloss.NewStyle().SetString("[x] ")
		s.Focused.UnselectedPrefix = lipgloss.NewStyle().SetString("[ ] ")
		s.Blurred = s.Focused
		s.Blurred.Base = s.Focused.Base.BorderStyle(lipgloss.HiddenBorder())
		s.Blurred.Card = s.Blurred.Base
		s.Blurred.MultiSelectSelector = lipgloss.NewStyle().SetString("  ")
		s.Group.Title = s.Focused.Title
		return s
	}
	s.Focused.Base = s.Focused.Base.BorderForeground(p.Accent)
	s.Focused.Card = s.Focused.Base
	s.Focused.Title = fg(p.Accent).Bold(true)
	s.Focused.NoteTitle = fg(p.Accent).Bold(true).MarginBottom(1)
	s.Focused.Description = fg(p.Muted)
	s.Focused.ErrorIndicator = fg(p.Danger).SetString(" *")
	s.Focused.ErrorMessage = fg(p.Danger)
	s.Focused.SelectSelector = fg(p.Secondary).SetString("> ")
	s.Focused.NextIndicator = fg(p.Secondary).MarginLeft(1).SetString("→")
	s.Focused.PrevIndicator = fg(p.Secondary).MarginRight(1).SetString("←")
	s.Focused.Option = fg(p.Fg)
	s.Focused.MultiSelectSelector = fg(p.Secondary).SetString("> ")
	s.Focused.SelectedOption = fg(p.Success)
	s.Focused.SelectedPrefix = fg(p.Success).SetString("[x] ")
	s.Focused.UnselectedPrefix = fg(p.Muted).SetString("[ ] ")
	s.Focused.UnselectedOption = fg(p.Fg)
	s.Focused.FocusedButton = s.Focused.FocusedButton.Foreground(p.HighlightFg).Background(p.Accent).Bold(true)
	s.Focused.Next = s.Focused.FocusedButton
	s.Focused.BlurredButton = s.Focused.BlurredButton.Foreground(p.Fg).Background(p.Subtle)
	s.Focused.TextInput.Cursor = fg(p.Accent)
	s.Focused.TextInput.Placeholder = fg(p.Muted)
	s.Focused.TextInput.Prompt = fg(p.Secondary)
	s.Focused.TextInput.Text = fg(p.Fg)
	s.Blurred = s.Focused
	s.Blurred.Base = s.Focused.Base.BorderStyle(lipgloss.HiddenBorder())
	s.Blurred.Card = s.Blurred.Base
	s.Blurred.NextIndicator = lipgloss.NewStyle()
	s.Blurred.PrevIndicator = lipgloss.NewStyle()
	s.Group.Title = s.Focused.Title
	s.Group.Description = s.Focused.Description
	return s
}
