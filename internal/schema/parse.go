package schema

import (
	"bytes"
	"encoding/json"
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
// what they mean (see lenient.go).
func ParseSchema(raw []byte) (*Schema, error) {
	if !json.Valid(raw) {
		return nil, &SchemaError{"", "not valid JSON"}
	}
	top, err := objectOf(raw)
	if err != nil {
		return nil, &SchemaError{"", "not a JSON object"}
	}
	s := &Schema{}
	for _, k := range sortedKeys(top) {
		if refused[k] && k != "properties" {
			return nil, &SchemaError{"", fmt.Sprintf("keyword %q is not supported", k)}
		}
	}
	var typ string
	if err := json.Unmarshal(top["type"], &typ); err != nil || typ != "object" {
		return nil, &SchemaError{"", `type must be "object"`}
	}
	s.Title = lenientString(top, "title")
	s.Description = lenientString(top, "description")
	p := &parser{defs: map[string]json.RawMessage{}}
	for _, k := range []string{"definitions", "$defs"} {
		if d, err := objectOf(top[k]); err == nil {
			for name, v := range d {
				p.defs["#/"+k+"/"+name] = v
			}
		}
	}
	if raw, ok := top["properties"]; ok {
		props, err := orderedProperties(raw)
		if err != nil {
			return nil, err
		}
		for _, pr := range props {
			f, err := p.parseField(pr.key, pr.raw)
			if err != nil {
				return nil, err
			}
			s.Fields = append(s.Fields, f)
		}
	}
	if err := applyRequired(s, top["required"]); err != nil {
		return nil, err
	}
	for _, f := range s.Fields {
		f.Secret = isSecret(f)
	}
	linkOther(s)
	return s, nil
}

// objectOf decodes a JSON object into its members; null and non-objects fail.
func objectOf(raw []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("null")
	}
	return m, nil
}

type rawProperty struct {
	key string
	raw json.RawMessage
}

// orderedProperties reads `properties` with a token decoder, because a Go
// map would lose the agent's order.
func orderedProperties(raw json.RawMessage) ([]rawProperty, error) {
	notObject := &SchemaError{"", "properties must be an object"}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, notObject
	}
	var out []rawProperty
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, notObject
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, notObject
		}
		switch {
		case key == "":
			return nil, &SchemaError{"", "a property has an empty name"}
		case seen[key]:
			return nil, &SchemaError{key, "appears twice in properties"}
		case len(out) == MaxProperties:
			return nil, &SchemaError{"", fmt.Sprintf("more than %d properties", MaxProperties)}
		}
		seen[key] = true
		out = append(out, rawProperty{key, v})
	}
	return out, nil
}

func applyRequired(s *Schema, raw json.RawMessage) error {
	if raw == nil {
		return nil
	}
	var req []string
	if err := json.Unmarshal(raw, &req); err != nil {
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
func (p *parser) parseField(key string, raw json.RawMessage) (*Field, error) {
	fail := func(format string, args ...any) error {
		return &SchemaError{key, fmt.Sprintf(format, args...)}
	}
	m, err := objectOf(raw)
	if err != nil {
		return nil, fail("not a schema object")
	}
	m, nullable, err := p.normalize(m)
	if err != nil {
		return nil, fail("%s", err)
	}
	if _, ok := m["const"]; ok {
		f, err := parseConst(key, m)
		if err != nil {
			return nil, fail("%s", err)
		}
		return f, nil
	}
	for _, k := range sortedKeys(m) {
		switch {
		case k == "properties":
			return nil, fail("nested objects are not supported")
		case refused[k] && k != "oneOf" && !lenientKeywords[k]:
			return nil, fail("keyword %q is not supported", k)
		}
	}
	typ, err := propertyType(m)
	if err != nil {
		return nil, fail("%s", err)
	}
	allowed := kindKeywords[typ]
	for _, k := range sortedKeys(m) {
		if allKindKeywords[k] && !slices.Contains(allowed, k) || k == "oneOf" && typ != "string" {
			return nil, fail("keyword %q does not apply to type %s", k, typ)
		}
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
	if d, ok := m["default"]; ok {
		applyDefault(f, d)
	}
	return f, nil
}

// propertyType returns the property's type; a missing type is taken as
// string when the property lists string options, as some agents send.
func propertyType(m map[string]json.RawMessage) (string, error) {
	raw, ok := m["type"]
	if !ok {
		if _, e := m["enum"]; e {
			return "string", nil
		}
		if _, o := m["oneOf"]; o {
			return "string", nil
		}
		return "", fmt.Errorf("missing type")
	}
	var typ string
	if err := json.Unmarshal(raw, &typ); err != nil {
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
