package schema

import (
	"encoding/json"
	"unicode/utf8"
)

// plain marks the bytes a JSON string holds as they are: not a quote, a
// backslash or a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads the string at r.i. Its value is the bytes as written when it
// has no escape and is valid UTF-8; otherwise encoding/json decodes just
// this string, so escapes, surrogates and invalid UTF-8 come out exactly
// as they always did.
func (r *reader) str() (string, bool) {
	start := r.i
	esc := false
	for i := start + 1; i < len(r.b); i++ {
		c := r.b[i]
		if plain[c] {
			continue
		}
		switch c {
		case '"':
			r.i = i + 1
			content := r.b[start+1 : i]
			if !esc && utf8.Valid(content) {
				return intern(content), true
			}
			var s string
			if json.Unmarshal(r.b[start:r.i], &s) != nil {
				return "", false
			}
			return s, true
		case '\\':
			esc = true
			i++
			if i >= len(r.b) {
				return "", false
			}
			switch r.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(r.b) || !hexDigit(r.b[i+1]) || !hexDigit(r.b[i+2]) || !hexDigit(r.b[i+3]) || !hexDigit(r.b[i+4]) {
					return "", false
				}
				i += 4
			default:
				return "", false
			}
		default: // a control character
			return "", false
		}
	}
	return "", false
}

func hexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *reader) number() bool {
	b, i := r.b, r.i
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
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return false
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
			return false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	r.i = i
	return true
}

// intern returns the keywords every schema repeats without allocating.
func intern(b []byte) string {
	switch string(b) {
	case "type":
		return "type"
	case "object":
		return "object"
	case "properties":
		return "properties"
	case "required":
		return "required"
	case "title":
		return "title"
	case "description":
		return "description"
	case "default":
		return "default"
	case "string":
		return "string"
	case "integer":
		return "integer"
	case "number":
		return "number"
	case "boolean":
		return "boolean"
	case "array":
		return "array"
	case "items":
		return "items"
	case "enum":
		return "enum"
	case "oneOf":
		return "oneOf"
	case "const":
		return "const"
	case "format":
		return "format"
	case "minimum":
		return "minimum"
	case "maximum":
		return "maximum"
	case "minLength":
		return "minLength"
	case "maxLength":
		return "maxLength"
	}
	return string(b)
}
