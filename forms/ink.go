package forms

import (
	"strings"
	"sync/atomic"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/elicit-dev/elicit/theme"
)

// ink is a text style reduced to the escape codes it puts around one line
// of text. Drawing a form styles a label, a marker and an answer for every
// field and a dozen key names in the help line, on every frame; lipgloss's
// Render works out borders, padding, margins and width on each call, which
// made the first View of a 50-field form cost about 0.4 ms. Hand-written
// because lipgloss has no cheaper path for a style with colours and
// attributes only; any other style, and any text with a newline, tab or
// escape code, goes through Render as before.
type ink struct {
	st       lipgloss.Style
	pre, suf string
	fast     bool
}

func newInk(st lipgloss.Style) ink {
	k := ink{st: st}
	if st.GetWidth() != 0 || st.GetHeight() != 0 || st.GetMaxWidth() != 0 || st.GetMaxHeight() != 0 ||
		st.GetHorizontalFrameSize() != 0 || st.GetVerticalFrameSize() != 0 || st.GetTransform() != nil ||
		st.GetUnderlineSpaces() || st.GetStrikethroughSpaces() || st.GetColorWhitespace() {
		return k // not only colours and attributes: Render each time
	}
	const probe = "a b"
	r := st.Render(probe)
	if i := strings.Index(r, probe); i >= 0 && strings.Count(r, probe) == 1 {
		k.pre, k.suf, k.fast = r[:i], r[i+len(probe):], true
	}
	return k
}

// render styles s as st.Render(s) does.
func (k ink) render(s string) string {
	if !k.fast || s == "" || strings.ContainsAny(s, "\n\r\t\x1b") {
		return k.st.Render(s)
	}
	return k.pre + s + k.suf
}

// inks are the theme's styles used line by line in View.
type inks struct {
	bold, accent, danger, secondary, muted, key, keyHelp ink
}

// themeCache holds the huh theme and the inks made for the last theme a
// Model was built with: the root model keeps one theme, so each new form
// reuses them.
type themeCache struct {
	th  *theme.Theme
	hth huh.Theme
	ink *inks
}

var lastTheme atomic.Pointer[themeCache]

// stylesFor returns the cached huh theme and inks for th, making them if th
// is not the last theme seen.
func stylesFor(th *theme.Theme) (huh.Theme, *inks) {
	if c := lastTheme.Load(); c != nil && c.th == th {
		return c.hth, c.ink
	}
	c := &themeCache{th: th, hth: cacheTheme(th.Huh()), ink: newInks(th)}
	lastTheme.Store(c)
	return c.hth, c.ink
}

func newInks(th *theme.Theme) *inks {
	return &inks{
		bold: newInk(th.Bold), accent: newInk(th.Accent), danger: newInk(th.Danger),
		secondary: newInk(th.Secondary), muted: newInk(th.Muted),
		key: newInk(th.Key), keyHelp: newInk(th.KeyHelp),
	}
}
