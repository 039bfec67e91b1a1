package schema

import (
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/jsonlex"
)

// str reads the string at r.i. Its value is the bytes as written when it
// has no escape and is valid UTF-8; otherwise jsonlex.Unquote decodes it,
// exactly as encoding/json does (escapes, surrogates, invalid UTF-8).
func (r *reader) str() (string, bool) {
	start := r.i
	end, esc, ok := jsonlex.String(r.b, start)
	if !ok {
		return "", false
	}
	r.i = end
	content := r.b[start+1 : end-1]
	if !esc && utf8.Valid(content) {
		return intern(content), true
	}
	return jsonlex.Unquote(r.b[start:end])
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *reader) number() bool {
	end, ok := jsonlex.Number(r.b, r.i)
	if ok {
		r.i = end
	}
	return ok
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
