package sanitize

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Diff is for file content shown to be approved (a permission's diff, a
// write the user is asked about), where what is shown must be what will
// be written: nothing is removed. Newline and tab stay, and so does the CR
// of a CRLF line ending; every other C0 control becomes its Unicode
// control picture (NUL ␀, BS ␈, a lone CR ␍, ESC ␛ …), DEL becomes ␡, and
// a C1 control, a bidi control or an invisible character becomes a
// visible <U+XXXX>. An escape sequence shows as ␛ and the characters after
// it, which are printable and do nothing on a terminal. Invalid UTF-8
// becomes U+FFFD. Text that needs none of this is returned as is.
//
// Unshown maps the output back: Unshown(Diff(s)) is s (made valid UTF-8)
// whenever s holds no control picture and no "<U+" of its own.
func Diff(s string) string {
	if diffClean(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			b.WriteByte('\r')
		case r < 0x20:
			b.WriteRune(0x2400 + r) // the control pictures block: ␀ at U+2400
		case r == 0x7f:
			b.WriteRune('\u2421') // ␡
		case r >= 0x80 && r < 0xa0 || Visible(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// DiffLine is Diff for one line (a path in a diff's title): newline and
// tab are shown as ␊ and ␉ too.
func DiffLine(s string) string {
	s = Diff(s)
	if strings.ContainsAny(s, "\n\t\r") {
		s = strings.NewReplacer("\r\n", "\u240d\u240a", "\n", "\u240a", "\t", "\u2409").Replace(s)
	}
	return s
}

// diffClean is Diff's fast path: text with nothing to show differently.
func diffClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' && !(c == '\r' && i+1 < len(s) && s[i+1] == '\n') || c == 0x7f {
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

// Unshown reverses Diff: control pictures become their controls again,
// and <U+XXXX> the character it names. It exists for tests and fuzzing,
// which check that Diff loses nothing; never draw its output.
func Unshown(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r >= 0x2400 && r < 0x2420:
			b.WriteRune(r - 0x2400)
		case r == '\u2421':
			b.WriteByte(0x7f)
		case strings.HasPrefix(s[i:], "<U+"):
			var v rune
			var n int
			if end := strings.IndexByte(s[i:], '>'); end > 3 {
				if _, err := fmt.Sscanf(s[i+3:i+end], "%X", &v); err == nil {
					n = end + 1
				}
			}
			if n > 0 {
				b.WriteRune(v)
				i += n
				continue
			}
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}
