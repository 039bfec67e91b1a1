// Package sanitize makes text from an agent safe to draw on a terminal.
// Escape sequences and control characters are removed; bidi controls and
// invisible format characters are made visible as <U+XXXX>.
//
//	fmt.Println(sanitize.Text(agentMessage))
package sanitize

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Text returns s with every escape sequence (CSI, OSC, DCS, APC, PM, SOS,
// including hyperlinks and clipboard writes), every C0 control other than
// newline and tab, every C1 control and DEL removed; invalid UTF-8 becomes
// U+FFFD, and bidi controls and invisible format characters are replaced by
// a visible <U+XXXX>. Text that needs none of this is returned as is,
// without allocating.
func Text(s string) string { return clean(s, false) }

// Line is Text for one-line contexts (titles, labels, option names):
// newlines and tabs become single spaces as well.
func Line(s string) string { return clean(s, true) }

func clean(s string, oneLine bool) string {
	if isClean(s, oneLine) {
		return s
	}
	// The ansi parser removes whole escape sequences (a lone ESC, an
	// unterminated string sequence); what remains is filtered rune by rune.
	stripped := ansi.Strip(strings.ToValidUTF8(s, "\uFFFD"))
	var b strings.Builder
	b.Grow(len(stripped))
	for _, r := range stripped {
		switch {
		case r == '\n' || r == '\t':
			if oneLine {
				b.WriteByte(' ')
			} else {
				b.WriteRune(r)
			}
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			// C0, DEL and C1 controls: dropped.
		case Visible(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isClean is the fast path: plain printable text needs no copy.
func isClean(s string, oneLine bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && (oneLine || (c != '\n' && c != '\t')) || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || (r >= 0x80 && r < 0xa0) || Visible(r) {
			return false
		}
		i += size
	}
	return true
}

// Visible reports whether r is a bidi control or an invisible character that
// must be shown as <U+XXXX> rather than drawn: every format character (Cf),
// the joiners ZWJ and ZWNJ and the soft hyphen included (terminals disagree
// on their width, so they misalign borders; an emoji ZWJ sequence is shown
// as its parts), the combining grapheme joiner, the line and paragraph
// separators, the Unicode tag characters, fillers that render as blank, and
// noncharacters.
func Visible(r rune) bool {
	switch r {
	case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, // Hangul fillers, braille blank
		0x034F, 0x2028, 0x2029: // combining grapheme joiner, line and paragraph separators
		return true
	}
	if r >= 0xE0000 && r <= 0xE007F { // tags ("ASCII smuggling")
		return true
	}
	if r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE {
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// idLimit is how many characters of an identifier ID shows.
const idLimit = 64

// ID is the one display function for identifiers an agent chose (tool call
// ids, elicitation ids, option ids): Line, cut to 64 characters ending in
// "…". The identifier itself stays exact on the wire; only its display goes
// through here.
func ID(s string) string {
	s = Line(s)
	if utf8.RuneCountInString(s) <= idLimit {
		return s
	}
	return string([]rune(s)[:idLimit-1]) + "…"
}

// Faithful is for text written to a pipe, where another program reads it:
// the text is kept as the agent sent it (carriage returns, bidi marks, byte
// order marks and zero-width characters included), and only what a terminal
// would obey is removed: escape sequences, C1 controls, DEL and the C0
// controls other than newline, tab and carriage return. Invalid UTF-8
// becomes U+FFFD.
func Faithful(s string) string {
	clean := true
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0x7f {
				clean = false
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r >= 0x80 && r < 0xa0 {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	stripped := ansi.Strip(strings.ToValidUTF8(s, "\uFFFD"))
	var b strings.Builder
	b.Grow(len(stripped))
	for _, r := range stripped {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Summary is Line with runs of white space folded, cut to at most n
// characters (ending in "…" when cut): an agent's message quoted in a notice.
func Summary(s string, n int) string {
	if plainSummary(s, n) { // a form's title: every form a script answers says it
		return s
	}
	return summary(s, n)
}

// plainSummary reports whether Summary returns s as it is: at most n
// bytes of printable ASCII, without a space at either end or two in a row.
func plainSummary(s string, n int) bool {
	if len(s) > n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' ') {
			return false
		}
	}
	return true
}

func summary(s string, n int) string {
	s = strings.Join(strings.Fields(Line(s)), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
