package termout

import (
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// EscapeJSON returns JSON text (such as encoding/json's output) with every
// bidi control, invisible character, DEL and C1 control written as a \uXXXX
// escape, so the JSON means the same but shows nothing hidden on a
// terminal. encoding/json escapes only U+2028 and U+2029 (and the C0
// controls); such characters can only occur inside JSON strings, where the
// escape is valid.
func EscapeJSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		r, size := rune(b[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(b[i:])
		} else if r != 0x7f {
			i++
			continue
		}
		if r >= 0x7f && r < 0xa0 || sanitize.Visible(r) || r == utf8.RuneError && size == 1 {
			if out == nil {
				out = make([]byte, 0, len(b)+32)
			}
			out = append(out, b[last:i]...)
			if r == utf8.RuneError && size == 1 {
				r = utf8.RuneError
			}
			out = appendJSONEscape(out, r)
			last = i + size
		}
		i += size
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// appendJSONEscape writes r as \uXXXX, as a surrogate pair above U+FFFF.
func appendJSONEscape(b []byte, r rune) []byte {
	if r > 0xffff {
		r -= 0x10000
		b = appendU(b, 0xd800+(r>>10))
		return appendU(b, 0xdc00+(r&0x3ff))
	}
	return appendU(b, r)
}

func appendU(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
