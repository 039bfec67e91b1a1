package mcpconn

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// formKey names a form by its message and its schema's content (keys in
// sorted order, numbers as float64): what the SDK's decoded map still
// tells.
func formKey(message string, schema any) string {
	canon, ok := canonicalText(schema)
	if !ok {
		return ""
	}
	return formKeyOf(message, canon)
}

// formKeyOf is formKey from the schema's canonical text.
func formKeyOf(message, canon string) string {
	return "form\x00" + message + "\x00" + canon
}

// canonicalText is a decoded JSON value as canonical writes it.
func canonicalText(v any) (string, bool) {
	var b strings.Builder
	b.Grow(512)
	if !canonical(&b, v) {
		return "", false
	}
	return b.String(), true
}

// canonical writes a decoded JSON value as json.Marshal would (object keys
// sorted, numbers as float64), and reports whether it could. It is
// hand-written because formKey runs twice for every form (the raw schema
// and the SDK's copy): encoding/json's reflection and its sorted map keys
// were a third of what elicit mcp call allocated beyond a bare client.
// Anything but the types a JSON decoder makes goes through json.Marshal.
func canonical(b *strings.Builder, v any) bool {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		return writeString(b, v)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false // json.Marshal refuses them too
		}
		// encoding/json's float64 format: 'e' outside [1e-6, 1e21).
		format, abs := byte('f'), math.Abs(v)
		if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
			format = 'e'
		}
		var buf [32]byte
		n := strconv.AppendFloat(buf[:0], v, format, -1, 64)
		if format == 'e' { // e-09 becomes e-9, as encoding/json writes it
			if l := len(n); l >= 4 && n[l-4] == 'e' && n[l-3] == '-' && n[l-2] == '0' {
				n[l-2] = n[l-1]
				n = n[:l-1]
			}
		}
		b.Write(n)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if !canonical(b, e) {
				return false
			}
		}
		b.WriteByte(']')
	case map[string]any:
		var small [16]string
		keys := small[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			if !writeString(b, k) {
				return false
			}
			b.WriteByte(':')
			if !canonical(b, v[k]) {
				return false
			}
		}
		b.WriteByte('}')
	default:
		return marshalInto(b, v)
	}
	return true
}

// marshalInto writes json.Marshal's encoding of v (what canonical does not
// walk itself).
func marshalInto(b *strings.Builder, v any) bool {
	out, err := json.Marshal(v)
	if err != nil {
		return false
	}
	b.Write(out)
	return true
}

// writeString writes s as json.Marshal would.
func writeString(b *strings.Builder, s string) bool {
	if !plainString(s) {
		return marshalInto(b, s)
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
	return true
}

// plainString reports whether json.Marshal writes s between quotes as it
// is: printable ASCII without a quote, a backslash or an HTML character.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

func urlKey(message, url, id string) string { return "url\x00" + message + "\x00" + url + "\x00" + id }
