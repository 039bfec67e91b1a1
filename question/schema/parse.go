package schema

import (
	"fmt"
	"slices"
)

// refused lists JSON Schema keywords that change what a value means or may
// be. Outside the restricted subset they cannot be honoured, so a schema that
// uses one is refused rather than silently half-checked. Every other unknown
// keyword is an annotation (JSON Schema's own rule) and is ignored: `$schema`,
// `$id`, `$comment`, `examples`, `deprecated`, vendor `x-` keys and so on.
var refused = map[string]bool{
	"$ref": true, "$dynamicRef": true, "$recursiveRef": true,
	"allOf": true, "anyOf": true, "oneOf": true, "not": true,
	"if": true, "then": true, "else": true,
	"dependentRequired": true, "dependentSchemas": true, "dependencies": true,
	"properties": true, "patternProperties": true, "propertyNames": true,
	"minProperties": true, "maxProperties": true, "unevaluatedProperties": true,
	"prefixItems": true, "contains": true, "minContains": true, "maxContains": true,
	"additionalItems": true, "unevaluatedItems": true,
	"const": true, "multipleOf": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"contentEncoding": true, "contentSchema": true,
}

// lenientKeywords are refused keywords that a property may still carry
// because the parser reads them itself: exclusive bounds are checked.
var lenientKeywords = map[string]bool{"exclusiveMinimum": true, "exclusiveMaximum": true}

// kindKeywords lists the keywords each property type may carry besides
// type, title, description and default.
var kindKeywords = map[string][]string{
	"string":  {"minLength", "maxLength", "pattern", "format", "enum", "enumNames", "oneOf"},
	"number":  {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"},
	"integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"},
	"boolean": {},
	"array":   {"items", "minItems", "maxItems", "uniqueItems"},
}

// allKindKeywords is every keyword some type allows, to tell "wrong type for
// this keyword" from "unknown annotation".
var allKindKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, ks := range kindKeywords {
		for _, k := range ks {
			m[k] = true
		}
	}
	return m
}()

// ParseSchema parses a restricted elicitation schema, keeping the
// properties in the order of the agent's JSON. Anything outside the subset
// is refused with a *SchemaError naming the property and the reason. It is
// lenient where ACP 1.7.0 and real SDKs are: a title, description or
// default that is wrong is dropped (a default with a note), an unknown
// format is an annotation, and the shapes popular SDKs emit are read as
// what they mean (see lenient.go). The JSON is read once (see tree.go).
func ParseSchema(raw []byte) (*Schema, error) {
	top, ok := readJSON(raw)
	if !ok {
		return nil, &SchemaError{"", "not valid JSON"}
	}
	if !top.object() {
		return nil, &SchemaError{"", "not a JSON object"}
	}
	s := &Schema{}
	if k, bad := minKey(top, func(k string) bool { return refused[k] && k != "properties" }); bad {
		return nil, &SchemaError{"", fmt.Sprintf("keyword %q is not supported", k)}
	}
	if typ, _ := top.get("type").asString(); typ != "object" {
		return nil, &SchemaError{"", `type must be "object"`}
	}
	s.Title = lenientString(top, "title")
	s.Description = lenientString(top, "description")
	p := &parser{}
	for _, k := range []string{"definitions", "$defs"} {
		if d := top.get(k); d.object() {
			if p.defs == nil {
				p.defs = map[string]*node{}
			}
			for i, name := range d.keys {
				p.defs["#/"+k+"/"+name] = d.elems[i]
			}
		}
	}
	if props := top.get("properties"); props != nil {
		list, err := orderedProperties(props)
		if err != nil {
			return nil, err
		}
		if len(list) > 0 {
			s.Fields = make([]*Field, 0, len(list))
		}
		for _, pr := range list {
			f, err := p.parseField(pr.key, pr.schema)
			if err != nil {
				return nil, err
			}
			s.Fields = append(s.Fields, f)
		}
	}
	if err := applyRequired(s, top.get("required")); err != nil {
		return nil, err
	}
	// The parser reads a few keywords; an answer is validated against the
	// whole schema (by the MCP SDK), whose $ref must not loop.
	if err := checkRefs(raw, top); err != nil {
		return nil, err
	}
	for _, f := range s.Fields {
		f.Secret = isSecret(f)
	}
	linkOther(s)
	return s, nil
}

// minKey is the first key of object n, in sorted order, that bad holds for
// (the keyword a refusal names when there are several).
func minKey(n *node, bad func(string) bool) (string, bool) {
	found, min := false, ""
	for _, k := range n.keys {
		if (!found || k < min) && bad(k) {
			found, min = true, k
		}
	}
	return min, found
}

type rawProperty struct {
	key    string
	schema *node
}

// orderedProperties lists `properties` in the agent's order.
func orderedProperties(props *node) ([]rawProperty, error) {
	if !props.object() {
		return nil, &SchemaError{"", "properties must be an object"}
	}
	out := make([]rawProperty, 0, len(props.keys))
	var seen map[string]bool // only for long lists
	if len(props.keys) > 16 {
		seen = make(map[string]bool, len(props.keys))
	}
	for i, key := range props.keys {
		switch {
		case key == "":
			return nil, &SchemaError{"", "a property has an empty name"}
		case seen != nil && seen[key] || seen == nil && slices.ContainsFunc(out, func(p rawProperty) bool { return p.key == key }):
			return nil, &SchemaError{key, "appears twice in properties"}
		case len(out) == MaxProperties:
			return nil, &SchemaError{"", fmt.Sprintf("more than %d properties", MaxProperties)}
		}
		if seen != nil {
			seen[key] = true
		}
		out = append(out, rawProperty{key, props.elems[i]})
	}
	return out, nil
}

func applyRequired(s *Schema, n *node) error {
	if n == nil {
		return nil
	}
	req, ok := n.strings()
	if !ok {
		return &SchemaError{"", "required must be an array of property names"}
	}
	for _, k := range req {
		f := s.Field(k)
		if f == nil {
			return &SchemaError{k, "listed in required but not in properties"}
		}
		switch {
		case f.Nullable:
			// Required but nullable: optional here, and sent as null when
			// left empty, so the agent's own validation still passes.
			f.SendNull = true
		case f.Kind == KindConst:
			// Always sent anyway.
		default:
			f.Required = true
		}
	}
	return nil
}

// parseField parses one property, after reading the lenient shapes as the
// restricted ones they stand for.
func (p *parser) parseField(key string, n *node) (*Field, error) {
	fail := func(format string, args ...any) error {
		return &SchemaError{key, fmt.Sprintf(format, args...)}
	}
	if !n.object() {
		return nil, fail("not a schema object")
	}
	m, nullable, err := p.normalize(n)
	if err != nil {
		return nil, fail("%s", err)
	}
	if m.has("const") {
		f, err := parseConst(key, m)
		if err != nil {
			return nil, fail("%s", err)
		}
		return f, nil
	}
	if k, bad := minKey(m, func(k string) bool {
		return k == "properties" || refused[k] && k != "oneOf" && !lenientKeywords[k]
	}); bad {
		if k == "properties" {
			return nil, fail("nested objects are not supported")
		}
		return nil, fail("keyword %q is not supported", k)
	}
	typ, err := propertyType(m)
	if err != nil {
		return nil, fail("%s", err)
	}
	allowed := kindKeywords[typ]
	if k, bad := minKey(m, func(k string) bool {
		return allKindKeywords[k] && !slices.Contains(allowed, k) || k == "oneOf" && typ != "string"
	}); bad {
		return nil, fail("keyword %q does not apply to type %s", k, typ)
	}
	f := &Field{Key: key, Nullable: nullable}
	f.Title = lenientString(m, "title")
	f.Description = lenientString(m, "description")
	switch typ {
	case "string":
		err = parseString(f, m)
	case "number", "integer":
		f.Kind = KindNumber
		if typ == "integer" {
			f.Kind = KindInteger
		}
		err = parseNumber(f, m)
	case "boolean":
		f.Kind = KindBoolean
	case "array":
		err = parseArray(f, m, p)
	}
	if err != nil {
		return nil, fail("%s", err)
	}
	if d := m.get("default"); d != nil {
		applyDefault(f, d)
	}
	return f, nil
}

// propertyType returns the property's type; a missing type is taken as
// string when the property lists string options, as some agents send.
func propertyType(m *node) (string, error) {
	t := m.get("type")
	if t == nil {
		if m.has("enum") || m.has("oneOf") {
			return "string", nil
		}
		return "", fmt.Errorf("missing type")
	}
	typ, ok := t.asString()
	if !ok {
		return "", fmt.Errorf("type must be one type, optionally with \"null\" (a list of types is not supported)")
	}
	switch typ {
	case "object":
		return "", fmt.Errorf("nested objects are not supported")
	case "string", "number", "integer", "boolean", "array":
		return typ, nil
	}
	return "", fmt.Errorf("type %s is not supported", quoteShort(typ))
}
