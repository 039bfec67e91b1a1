package ui

import (
	"regexp"
	"strings"
	"sync"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
)

// markdown renders agent markdown with glamour, keeping one renderer per
// width (building one parses a whole style sheet).
type markdown struct {
	mu        sync.Mutex // the background renderer is used from commands
	style     string
	renderers map[int]*glamour.TermRenderer
}

func newMarkdown(isDark, noColor bool) *markdown {
	style := "light"
	if isDark {
		style = "dark"
	}
	if noColor {
		style = "notty"
	}
	return &markdown{style: style, renderers: map[int]*glamour.TermRenderer{}}
}

// hyperlink matches OSC 8 hyperlinks, which glamour adds to markdown
// links: agent text must not become clickable with a target the user does
// not see (the URL itself is still printed after the link text).
var hyperlink = regexp.MustCompile("\x1b\\]8;[^\x07\x1b]*(?:\x07|\x1b\\\\)")

// trimStyledRight drops the styled blanks glamour pads each line with to
// the wrap width: they cost bytes on every redraw and nothing on screen.
func trimStyledRight(l string) string {
	plain := ansi.Strip(l)
	trimmed := strings.TrimRight(plain, " \u00a0")
	if len(trimmed) == len(plain) {
		return l
	}
	return ansi.Truncate(l, ansi.StringWidth(trimmed), "")
}

// plainLimit is the size past which a still-streaming message is drawn as
// wrapped plain text; it gets its markdown render once it is finished.
const plainLimit = 32 * 1024

// render returns the lines of text rendered for width. Anything glamour
// cannot render is shown as wrapped plain text rather than lost.
func (md *markdown) render(text string, width int) []string {
	md.mu.Lock()
	defer md.mu.Unlock()
	if width < 10 {
		width = 10
	}
	r := md.renderers[width]
	if r == nil {
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStandardStyle(md.style), glamour.WithWordWrap(width-2))
		if err != nil {
			return plainLines(text, width)
		}
		md.renderers[width] = r
	}
	out, err := r.Render(text)
	if err != nil {
		return plainLines(text, width)
	}
	out = hyperlink.ReplaceAllString(strings.Trim(out, "\n"), "")
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = trimStyledRight(l)
	}
	return lines
}

// plainLines wraps text to width without any markdown processing.
func plainLines(text string, width int) []string {
	if width < 10 {
		width = 10
	}
	return strings.Split(ansi.Wrap(strings.TrimRight(text, "\n"), width-2, " "), "\n")
}
