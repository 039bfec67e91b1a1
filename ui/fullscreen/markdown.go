package fullscreen

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/termout"
)

// markdown renders agent markdown with glamour, keeping one renderer per
// width (building one parses a whole style sheet).
type markdown struct {
	mu        sync.Mutex // the background renderer is used from commands
	warmState            // warmOnFence
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

// charRef matches a markdown (HTML) character reference.
var charRef = regexp.MustCompile(`&(?:#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,8}|[A-Za-z][A-Za-z0-9]{1,31});`)

// disarmReferences escapes the "&" of every character reference that would
// decode to a control, a bidi control or an invisible character, so glamour
// shows the reference as written instead of decoding it after the
// sanitizer ran (&#x1b;[31;5m would otherwise be a live escape sequence).
func disarmReferences(text string) string {
	if !strings.Contains(text, "&") {
		return text
	}
	return charRef.ReplaceAllStringFunc(text, func(ref string) string {
		if dangerousRef(ref) {
			return "&amp;" + ref[1:]
		}
		return ref
	})
}

// dangerousRef reports whether a character reference stands for something
// that must not reach the terminal as a raw character.
func dangerousRef(ref string) bool {
	if ref[1] == '#' {
		digits, base := ref[2:len(ref)-1], 10
		if digits[0] == 'x' || digits[0] == 'X' {
			digits, base = digits[1:], 16
		}
		n, err := strconv.ParseUint(digits, base, 32)
		r := rune(n)
		return err != nil || !utf8.ValidRune(r) || unsafeRune(r)
	}
	for _, r := range html.UnescapeString(ref) {
		if unsafeRune(r) {
			return true
		}
	}
	return false
}

func unsafeRune(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || sanitize.Visible(r)
}

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
		// Preserved new lines: an agent's single line breaks stay (markdown
		// would join the lines of a paragraph into one).
		r, err = glamour.NewTermRenderer(glamour.WithStandardStyle(md.style), glamour.WithWordWrap(width-2), glamour.WithPreservedNewLines())
		if err != nil {
			return plainLines(text, width)
		}
		md.renderers[width] = r
	}
	out, err := r.Render(disarmReferences(text))
	if err != nil {
		return plainLines(text, width)
	}
	// glamour's output may still carry what markdown made of the text:
	// keep only its colours (no OSC 8 hyperlink whose target the user does
	// not see; the URL is printed after the link text), and show any
	// invisible character it decoded.
	out = termout.String(strings.Trim(out, "\n"), termout.Styled)
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
