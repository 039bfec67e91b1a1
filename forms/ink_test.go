package forms

import (
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/elicit-dev/elicit/theme"
)

// An ink draws exactly what lipgloss's Render draws, whatever the style
// and the text.
func TestInkMatchesRender(t *testing.T) {
	th := theme.New(true, false)
	styles := map[string]lipgloss.Style{
		"bold": th.Bold, "accent": th.Accent, "danger": th.Danger, "secondary": th.Secondary,
		"muted": th.Muted, "key": th.Key, "keyHelp": th.KeyHelp,
		"plain":     lipgloss.NewStyle(),
		"padded":    lipgloss.NewStyle().Bold(true).Padding(0, 1),
		"width":     lipgloss.NewStyle().Width(12),
		"bordered":  lipgloss.NewStyle().Border(lipgloss.NormalBorder()),
		"underline": lipgloss.NewStyle().Underline(true),
		"no colour": theme.New(true, true).Bold,
	}
	texts := []string{"", "x", "Field 12", "  spaced  ", "wide 漢字 and é", "two\nlines", "tab\there", "› ", " *", "\x1b[31mred\x1b[m"}
	for name, st := range styles {
		k := newInk(st)
		for _, s := range texts {
			if got, want := k.render(s), st.Render(s); got != want {
				t.Errorf("%s %q: ink %q, Render %q", name, s, got, want)
			}
		}
	}
	if !newInk(th.Bold).fast || newInk(lipgloss.NewStyle().Width(12)).fast {
		t.Error("the fast path is not taken where it should be, or taken where it should not")
	}
}

// Forms built with the same theme share its huh theme and inks.
func TestStylesForCachesLastTheme(t *testing.T) {
	a, b := theme.New(true, false), theme.New(false, true)
	ha, ia := stylesFor(a)
	if h, i := stylesFor(a); h != ha || i != ia {
		t.Error("same theme, new styles")
	}
	if _, i := stylesFor(b); i == ia {
		t.Error("another theme got the first theme's inks")
	}
}

// wrapText draws a line that fits exactly as lipgloss's wrap at the width
// would, and still wraps one that does not.
func TestWrapTextFitsAsLipgloss(t *testing.T) {
	th := theme.New(true, false)
	m := &Model{th: th, width: 24}
	styles := []lipgloss.Style{th.Muted, th.Base, th.Bold, th.Danger, th.Warning, th.Notice, lipgloss.NewStyle()}
	texts := []string{"short", " lead", "trail ", "a  b", "漢字 wide", th.Accent.Render("x") + " y",
		strings.Repeat("x", 22), strings.Repeat("x", 23), "a sentence that is longer than the width"}
	for _, st := range styles {
		for _, s := range texts {
			for _, indent := range []int{0, 2} {
				w := m.width - indent
				var want []string
				for _, l := range strings.Split(st.Width(w).Render(s), "\n") {
					want = append(want, strings.Repeat(" ", indent)+strings.TrimRight(l, " "))
				}
				if got := m.wrapText(s, st, indent); !slices.Equal(got, want) {
					t.Errorf("%q indent %d: got %q, want %q", s, indent, got, want)
				}
			}
		}
	}
}
