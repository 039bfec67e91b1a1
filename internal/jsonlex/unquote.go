package jsonlex

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote decodes one JSON string token (quotes included) exactly as
// encoding/json decodes it into a string: escapes, surrogate pairs, a lone
// surrogate and each byte of invalid UTF-8 as U+FFFD. Hand-written (a port
// of encoding/json's unquoteBytes, which is not exported) because every
// text chunk holds escapes (its line ends are \n): json.Unmarshal checked the
// whole string again and decoded it through reflection, a tenth of the
// full screen's CPU in a flood. FuzzUnquote holds it to encoding/json.
func Unquote(s []byte) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	b.Grow(len(s))
	for r := 0; r < len(s); {
		switch c := s[r]; {
		case c == '\\':
			r++
			if r >= len(s) {
				return "", false
			}
			switch s[r] {
			case '"', '\\', '/':
				b.WriteByte(s[r])
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				rr := hex4(s[r-1:])
				if rr < 0 {
					return "", false
				}
				r += 5
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, hex4(s[r:])); dec != unicode.ReplacementChar {
						r += 6
						b.WriteRune(dec)
						continue
					}
					rr = unicode.ReplacementChar
				}
				b.WriteRune(rr)
				continue
			default:
				return "", false
			}
			r++
		case c == '"', c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			r += size
			b.WriteRune(rr) // RuneError for each invalid byte, as encoding/json
		}
	}
	return b.String(), true
}

// hex4 reads `\uXXXX` at the start of s, or returns -1.
func hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
