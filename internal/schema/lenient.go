package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// Real server SDKs emit a few shapes outside the restricted schema every
// day. They are read here as the restricted shapes they mean, before the
// strict checks run:
//
//   - pydantic / python SDK 1.x Optional[T]: anyOf [{T}, {type: null}]
//   - FastMCP and zod nullable: type [T, "null"]
//   - a local $ref to $defs or definitions (pydantic enums), also wrapped
//     in a one-entry allOf
//   - a single const (pydantic and zod literals): a fixed value
//
// Exclusive bounds (zod's positive()) and arrays of plain strings are read
// by parseNumber and parseArray.

// maxRefDepth bounds a chain of $ref, so a cycle ends in an error.
const maxRefDepth = 8

// parser holds what every property may refer to: the schema's $defs.
type parser struct {
	defs map[string]json.RawMessage // "#/$defs/Name" -> schema
}

// resolve replaces a local $ref (or a one-entry allOf holding one) by the
// schema it points to, the referring property's own keywords winning.
func (p *parser) resolve(m map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	for range maxRefDepth {
		if all, ok := m["allOf"]; ok {
			var list []json.RawMessage
			if json.Unmarshal(all, &list) != nil || len(list) != 1 {
				return nil, errors.New(`keyword "allOf" is not supported`)
			}
			inner, err := objectOf(list[0])
			if err != nil {
				return nil, errors.New(`keyword "allOf" is not supported`)
			}
			m = merge(inner, m, "allOf")
			continue
		}
		raw, ok := m["$ref"]
		if !ok {
			return m, nil
		}
		var ref string
		if err := json.Unmarshal(raw, &ref); err != nil {
			return nil, errors.New("$ref must be a string")
		}
		target, ok := p.defs[ref]
		if !ok {
			return nil, fmt.Errorf("$ref %s is not a local reference to $defs", quoteShort(ref))
		}
		inner, err := objectOf(target)
		if err != nil {
			return nil, fmt.Errorf("$ref %s is not a schema object", quoteShort(ref))
		}
		// The definition's title names its type (pydantic's "Size"), not
		// this property: the property's own title or key is shown instead.
		inner = merge(inner, nil, "")
		delete(inner, "title")
		m = merge(inner, m, "$ref")
	}
	return nil, errors.New("$ref chain too long (a cycle?)")
}

// merge returns a copy of base's keywords overridden by over's, without
// over's drop keyword.
func merge(base, over map[string]json.RawMessage, drop string) map[string]json.RawMessage {
	out := maps.Clone(base)
	for k, v := range over {
		if k != drop {
			out[k] = v
		}
	}
	return out
}

// normalize resolves references and reads the nullable shapes, returning
// the property as a plain restricted schema and whether null is allowed.
func (p *parser) normalize(m map[string]json.RawMessage) (map[string]json.RawMessage, bool, error) {
	m, err := p.resolve(m)
	if err != nil {
		return nil, false, err
	}
	nullable := false
	for _, k := range []string{"anyOf", "oneOf"} {
		raw, ok := m[k]
		if !ok {
			continue
		}
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil || len(list) != 2 {
			continue
		}
		for i, branch := range list {
			if !isNullSchema(branch) {
				continue
			}
			other, err := objectOf(list[1-i])
			if err != nil {
				return nil, false, fmt.Errorf("keyword %q is not supported", k)
			}
			if other, err = p.resolve(other); err != nil {
				return nil, false, err
			}
			m, nullable = merge(other, m, k), true
			break
		}
	}
	if raw, ok := m["type"]; ok && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		var types []string
		if err := json.Unmarshal(raw, &types); err != nil {
			return nil, false, errors.New("type must be a string or a list of strings")
		}
		var rest []string
		for _, t := range types {
			if t == "null" {
				nullable = true
			} else {
				rest = append(rest, t)
			}
		}
		if len(rest) != 1 {
			return nil, false, errors.New(`type must be one type, optionally with "null" (a list of types is not supported)`)
		}
		m = maps.Clone(m)
		m["type"], _ = json.Marshal(rest[0])
	}
	var openAPINull bool
	if json.Unmarshal(m["nullable"], &openAPINull) == nil && openAPINull {
		nullable = true
	}
	return m, nullable, nil
}

// isNullSchema reports whether raw is {"type": "null"} (annotations
// allowed).
func isNullSchema(raw json.RawMessage) bool {
	m, err := objectOf(raw)
	if err != nil {
		return false
	}
	var t string
	return json.Unmarshal(m["type"], &t) == nil && t == "null"
}

// parseConst reads a property with a single const (a pydantic or zod
// literal): a fixed value, shown and always sent as is.
func parseConst(key string, m map[string]json.RawMessage) (*Field, error) {
	dec := json.NewDecoder(bytes.NewReader(m["const"]))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, errors.New("const is not valid JSON")
	}
	want := ""
	switch c := v.(type) {
	case string:
		want = "string"
	case bool:
		want = "boolean"
	case json.Number:
		n, ok := toNumber(c)
		if !ok {
			return nil, errors.New("const is not a number JSON can carry")
		}
		v, want = n.text, "number"
		if n.dec.whole() {
			want = "integer"
		}
	default:
		return nil, errors.New("const must be a string, number or boolean")
	}
	var typ string
	if raw, ok := m["type"]; ok {
		if err := json.Unmarshal(raw, &typ); err != nil {
			return nil, errors.New("type must be one string")
		}
		if typ != want && !(typ == "number" && want == "integer") {
			return nil, fmt.Errorf("const is not of type %s", quoteShort(typ))
		}
	}
	f := &Field{Key: key, Kind: KindConst, Const: v, Default: v, HasDefault: true}
	f.Title = lenientString(m, "title")
	f.Description = lenientString(m, "description")
	return f, nil
}

// quoteShort quotes an agent's string for an error message: sanitized,
// cut to 40 characters.
func quoteShort(s string) string { return strconv.Quote(sanitize.Summary(s, 40)) }
