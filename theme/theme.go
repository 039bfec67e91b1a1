package theme

import (
	"image/color"
	"os"

	"charm.land/lipgloss/v2"
)

// Palette is the set of semantic colours every style is built from. A nil
// colour means "no colour" (the terminal's default), which is how NO_COLOR
// is honoured.
type Palette struct {
	Fg, Muted, Subtle, Accent, Secondary, Success, Warning, Danger, Info, Border, Highlight, HighlightFg color.Color
}

// NoColor reports whether the user asked for no colour (https://no-color.org).
func NoColor() bool {
	v, ok := os.LookupEnv("NO_COLOR")
	return ok && v != ""
}

// newPalette returns the palette for a dark or light background; with
// noColor every colour is nil.
func newPalette(isDark, noColor bool) Palette {
	if noColor {
		return Palette{}
	}
	ld := lipgloss.LightDark(isDark)
	return Palette{
		Fg:          ld(lipgloss.Color("#1F1F28"), lipgloss.Color("#DCD7BA")),
		Muted:       ld(lipgloss.Color("#6C6C7A"), lipgloss.Color("#8A8A9A")),
		Subtle:      ld(lipgloss.Color("#B8B8C4"), lipgloss.Color("#45455A")),
		Accent:      ld(lipgloss.Color("#5A4FCF"), lipgloss.Color("#9D8CFF")),
		Secondary:   ld(lipgloss.Color("#0B7A8A"), lipgloss.Color("#5FD7E8")),
		Success:     ld(lipgloss.Color("#1A7F37"), lipgloss.Color("#5FD787")),
		Warning:     ld(lipgloss.Color("#9A6700"), lipgloss.Color("#F2C94C")),
		Danger:      ld(lipgloss.Color("#C62828"), lipgloss.Color("#FF6B6B")),
		Info:        ld(lipgloss.Color("#0550AE"), lipgloss.Color("#79B8FF")),
		Border:      ld(lipgloss.Color("#B8B8C4"), lipgloss.Color("#45455A")),
		Highlight:   ld(lipgloss.Color("#FFF1A8"), lipgloss.Color("#4D3F00")),
		HighlightFg: ld(lipgloss.Color("#1F1F28"), lipgloss.Color("#FFF1A8")),
	}
}

// Theme is the set of lipgloss styles the UI draws with. Styles are values;
// copy and adjust them freely.
type Theme struct {
	P       Palette
	IsDark  bool
	NoColor bool

	Base, Muted, Subtle, Bold, Accent, Secondary     lipgloss.Style
	Success, Warning, Danger, Info                   lipgloss.Style
	Title, Key, KeyHelp, Highlight, Selected, Border lipgloss.Style
	UserLabel, AgentLabel, ThoughtLabel, ToolLabel   lipgloss.Style
	StatusBar, StatusItem, StatusAccent              lipgloss.Style
	Modal, ModalTitle, ErrorBox, Notice              lipgloss.Style
}

func fg(c color.Color) lipgloss.Style {
	s := lipgloss.NewStyle()
	if c != nil {
		s = s.Foreground(c)
	}
	return s
}

// New builds the theme for a dark or light background; noColor drops every
// colour but keeps bold, underline and reverse so emphasis still shows.
func New(isDark, noColor bool) *Theme {
	p := newPalette(isDark, noColor)
	t := &Theme{P: p, IsDark: isDark, NoColor: noColor}
	t.Base = fg(p.Fg)
	t.Muted = fg(p.Muted)
	t.Subtle = fg(p.Subtle)
	t.Bold = lipgloss.NewStyle().Bold(true)
	t.Accent = fg(p.Accent).Bold(true)
	t.Secondary = fg(p.Secondary)
	t.Success = fg(p.Success)
	t.Warning = fg(p.Warning).Bold(true)
	t.Danger = fg(p.Danger).Bold(true)
	t.Info = fg(p.Info)
	t.Title = fg(p.Accent).Bold(true)
	t.Key = fg(p.Secondary).Bold(true)
	t.KeyHelp = fg(p.Muted)
	if noColor {
		t.Highlight = lipgloss.NewStyle().Bold(true).Underline(true)
		t.Selected = lipgloss.NewStyle().Reverse(true)
	} else {
		t.Highlight = lipgloss.NewStyle().Foreground(p.HighlightFg).Background(p.Highlight).Bold(true)
		t.Selected = lipgloss.NewStyle().Foreground(p.Accent).Bold(true)
	}
	t.Border = fg(p.Border)
	t.UserLabel = fg(p.Secondary).Bold(true)
	t.AgentLabel = fg(p.Accent).Bold(true)
	t.ThoughtLabel = fg(p.Muted).Italic(true)
	t.ToolLabel = fg(p.Info).Bold(true)
	t.StatusBar = fg(p.Muted)
	t.StatusItem = fg(p.Muted)
	t.StatusAccent = fg(p.Accent).Bold(true)
	modal := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	if p.Accent != nil {
		modal = modal.BorderForeground(p.Accent)
	}
	t.Modal = modal
	t.ModalTitle = fg(p.Accent).Bold(true)
	eb := lipgloss.NewStyle().Border(lipgloss.NormalBorder()).Padding(0, 1)
	if p.Danger != nil {
		eb = eb.BorderForeground(p.Danger)
	}
	t.ErrorBox = eb
	t.Notice = fg(p.Warning)
	return t
}
