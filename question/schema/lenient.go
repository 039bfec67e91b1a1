package schema

import (
	"encoding/json"
	"errors"
	"fmt"
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
	defs map[string]*node // "#/$defs/Name" -> schema
}

// resolve replaces a local $ref (or a one-entry allOf holding one) by the
// schema it points to, the referring property's own keywords winning.
func (p *parser) resolve(m *node) (*node, error) {
	for range maxRefDepth {
		if all := m.get("allOf"); all != nil {
			list, ok := all.list()
			if !ok || len(list) != 1 || !list[0].object() {
				return nil, errors.New(`keyword "allOf" is not supported`)
			}
			m = merge(list[0], m, "allOf")
			continue
		}
		raw := m.get("$ref")
		if raw == nil {
			return m, nil
		}
		ref, ok := raw.asString()
		if !ok {
			return nil, errors.New("$ref must be a string")
		}
		target, ok := p.defs[ref]
		if !ok {
			return nil, fmt.Errorf("$ref %s is not a local reference to $defs", quoteShort(ref))
		}
		if !target.object() {
			return nil, fmt.Errorf("$ref %s is not a schema object", quoteShort(ref))
		}
		// The definition's title names its type (pydantic's "Size"), not
		// this property: the property's own title or key is shown instead.
		m = merge(target.without("title"), m, "$ref")
	}
	return nil, errors.New("$ref chain too long (a cycle?)")
}

// normalize resolves references and reads the nullable shapes, returning
// the property as a plain restricted schema and whether null is allowed.
func (p *parser) normalize(m *node) (*node, bool, error) {
	m, err := p.resolve(m)
	if err != nil {
		return nil, false, err
	}
	nullable := false
	for _, k := range []string{"anyOf", "oneOf"} {
		list, ok := m.get(k).list()
		if !ok || len(list) != 2 {
			continue
		}
		for i, branch := range list {
			if !isNullSchema(branch) {
				continue
			}
			other := list[1-i]
			if !other.object() {
				return nil, false, fmt.Errorf("keyword %q is not supported", k)
			}
			if other, err = p.resolve(other); err != nil {
				return nil, false, err
			}
			m, nullable = merge(other, m, k), true
			break
		}
	}
	if t := m.get("type"); t != nil && t.kind == '[' {
		types, ok := t.strings()
		if !ok {
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
		m = merge(m, &node{kind: '{', keys: []string{"type"}, elems: []*node{{kind: '"', str: rest[0]}}}, "")
	}
	if m.get("nullable").isTrue() {
		nullable = true
	}
	return m, nullable, nil
}

// isNullSchema reports whether n is {"type": "null"} (annotations
// allowed).
func isNullSchema(n *node) bool {
	if !n.object() {
		return false
	}
	t, ok := n.get("type").asString()
	return ok && t == "null"
}

// parseConst reads a property with a single const (a pydantic or zod
// literal): a fixed value, shown and always sent as is.
func parseConst(key string, m *node) (*Field, error) {
	c := m.get("const")
	var v any
	want := ""
	switch c.kind {
	case '"':
		v, want = c.str, "string"
	case 't', 'f':
		v, want = c.kind == 't', "boolean"
	case '0':
		n, ok := toNumber(json.Number(c.raw))
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
	if t := m.get("type"); t != nil {
		typ, ok := t.asString()
		if !ok {
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
