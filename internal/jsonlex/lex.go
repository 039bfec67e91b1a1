// Package jsonlex reads JSON tokens in place, by the grammar encoding/json
// accepts, for the decoders that read a line or a schema in one pass
// (acpconn's scan of every inbound line, schema's one-pass parser).
// Hand-written: encoding/json exports no token reader that leaves the
// bytes where they are, and its Decoder.Token allocates for every token.
package jsonlex

// plain marks the bytes a JSON string holds as they are: not a quote, a
// backslash or a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// String reads the string whose opening quote is at b[i]. It returns the
// index just past the closing quote and whether the string has escapes;
// ok is false for anything encoding/json would refuse (a control
// character, a bad escape, no closing quote).
func String(b []byte, i int) (end int, esc, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false, false
	}
	for i++; i < len(b); i++ {
		c := b[i]
		if plain[c] {
			continue
		}
		switch c {
		case '"':
			return i + 1, esc, true
		case '\\':
			esc = true
			i++
			if i >= len(b) {
				return i, false, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return i, false, false
				}
				i += 4
			default:
				return i, false, false
			}
		default: // a control character
			return i, false, false
		}
	}
	return i, false, false
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? at b[i] and
// returns the index just past it.
func Number(b []byte, i int) (end int, ok bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return i, false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return i, false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	return i, true
}
