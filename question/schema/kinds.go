package schema

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

func optString(m *node, key string) (string, error) {
	n := m.get(key)
	if n == nil {
		return "", nil
	}
	s, ok := n.asString()
	if !ok {
		return "", fmt.Errorf("%s must be a string", key)
	}
	return s, nil
}

// lenientString reads an annotation such as title or description the way
// ACP 1.7.0 does (DefaultOnError): anything but a string, null included,
// is dropped rather than a reason to refuse the schema.
func lenientString(m *node, key string) string {
	s, _ := optString(m, key)
	return s
}

// optCount reads a non-negative whole-number keyword such as minLength.
func optCount(m *node, key string) (*int, error) {
	n := m.get(key)
	if n == nil {
		return nil, nil
	}
	bad := fmt.Errorf("%s must be a non-negative whole number", key)
	d, err := n.decimal()
	if err != nil || d.neg || !d.whole() || d.exp > 10 {
		return nil, bad
	}
	v, err := strconv.Atoi(d.integerString())
	if err != nil || v > 1<<31 {
		return nil, bad
	}
	return &v, nil
}

// decimal reads a JSON number exactly, as written; anything else (a
// string holding a number too) is not one.
func (n *node) decimal() (decimal, error) {
	if n.kind != '0' {
		return decimal{}, errNotNumber
	}
	return parseDecimal(string(n.raw))
}

// optBound reads a numeric keyword such as minimum, exactly.
func optBound(m *node, key string) (*bound, error) {
	n := m.get(key)
	if n == nil {
		return nil, nil
	}
	d, err := n.decimal()
	if err != nil {
		return nil, fmt.Errorf("%s must be a number", key)
	}
	return newBound(d), nil
}

func parseString(f *Field, m *node) error {
	hasEnum, hasOneOf, hasNames := m.has("enum"), m.has("oneOf"), m.has("enumNames")
	switch {
	case hasEnum && hasOneOf:
		return errors.New("enum and oneOf together are not supported")
	case hasNames && !hasEnum:
		return errors.New("enumNames without enum")
	case hasEnum || hasOneOf:
		for _, k := range []string{"minLength", "maxLength", "pattern", "format"} {
			if m.has(k) {
				return fmt.Errorf("keyword %q does not apply to a choice", k)
			}
		}
		f.Kind = KindSelect
		var err error
		if hasEnum {
			f.Options, err = enumOptions(m.get("enum"), m.get("enumNames"))
		} else {
			f.Options, err = titledOptions(m.get("oneOf"), "oneOf")
		}
		if err != nil {
			return err
		}
		return indexOptions(f)
	}
	f.Kind = KindString
	return parseText(f, m)
}

// parseText reads the constraints of free text: lengths, format, pattern.
func parseText(f *Field, m *node) error {
	var err error
	if f.MinLength, err = optCount(m, "minLength"); err != nil {
		return err
	}
	if f.MaxLength, err = optCount(m, "maxLength"); err != nil {
		return err
	}
	if f.MinLength != nil && f.MaxLength != nil && *f.MinLength > *f.MaxLength {
		return fmt.Errorf("minLength %d is above maxLength %d", *f.MinLength, *f.MaxLength)
	}
	format, err := optString(m, "format")
	if err != nil {
		return err
	}
	switch Format(format) {
	case FormatNone, FormatEmail, FormatURI, FormatDate, FormatDateTime:
		f.Format = Format(format)
	default:
		f.FormatAnnotation = format // an annotation: not checked
	}
	if f.Pattern, err = optString(m, "pattern"); err != nil {
		return err
	}
	if f.Pattern != "" {
		f.re, f.PatternEngine = compilePattern(f.Pattern)
		f.PatternSkipped = f.re == nil
	}
	return nil
}

func parseArray(f *Field, m *node, p *parser) error {
	f.Kind = KindMultiSelect
	items := m.get("items")
	if !items.object() {
		return errors.New("a multi-select needs items with enum or anyOf")
	}
	items, err := p.resolve(items)
	if err != nil {
		return fmt.Errorf("items: %s", err)
	}
	if k, bad := minKey(items, func(k string) bool {
		return refused[k] && k != "anyOf" && k != "oneOf" || k == "properties"
	}); bad {
		return fmt.Errorf("items keyword %q is not supported", k)
	}
	if t := items.get("type"); t != nil {
		switch s, _ := t.asString(); s {
		case "string":
		case "object":
			return errors.New("arrays of objects are not supported")
		default:
			return errors.New("array items must be strings")
		}
	}
	switch {
	case items.has("enum"):
		f.Options, err = enumOptions(items.get("enum"), items.get("enumNames"))
	case items.has("anyOf"):
		f.Options, err = titledOptions(items.get("anyOf"), "items.anyOf")
	case items.has("oneOf"):
		f.Options, err = titledOptions(items.get("oneOf"), "items.oneOf")
	case items.has("type"):
		// An array of plain strings (pydantic list[str], zod z.array(z.string())):
		// a list, one value a line, each checked as a string field.
		f.Kind = KindList
		f.Item = &Field{Key: f.Key, Kind: KindString}
		if err := parseText(f.Item, items); err != nil {
			return fmt.Errorf("items: %s", err)
		}
		f.UniqueItems = m.get("uniqueItems").isTrue()
	default:
		return errors.New("a multi-select needs items with enum or anyOf")
	}
	if err != nil {
		return err
	}
	if f.Kind == KindMultiSelect {
		if err := indexOptions(f); err != nil {
			return err
		}
	}
	if f.MinItems, err = optCount(m, "minItems"); err != nil {
		return err
	}
	if f.MaxItems, err = optCount(m, "maxItems"); err != nil {
		return err
	}
	if f.MinItems != nil && f.MaxItems != nil && *f.MinItems > *f.MaxItems {
		return fmt.Errorf("minItems %d is above maxItems %d", *f.MinItems, *f.MaxItems)
	}
	if f.Kind == KindMultiSelect && f.MinItems != nil && *f.MinItems > len(f.Options) {
		return fmt.Errorf("minItems %d is more than the %d options", *f.MinItems, len(f.Options))
	}
	return nil
}

func enumOptions(enum, names *node) ([]Option, error) {
	vals, ok := enum.list()
	if !ok {
		return nil, errors.New("enum must be an array")
	}
	if err := optionCount(len(vals)); err != nil {
		return nil, err
	}
	var titles []string
	if names != nil {
		if titles, ok = names.strings(); !ok {
			return nil, errors.New("enumNames must be an array of strings")
		}
		if len(titles) != len(vals) {
			return nil, fmt.Errorf("enumNames has %d names for %d enum values", len(titles), len(vals))
		}
	}
	opts := make([]Option, len(vals))
	for i, v := range vals {
		if v.kind != '"' {
			return nil, errors.New("enum values must be strings")
		}
		opts[i] = Option{Value: v.str, Title: v.str}
		if titles != nil && titles[i] != "" {
			opts[i].Title = titles[i]
		}
	}
	return opts, nil
}

// titledOptions reads oneOf / anyOf as [{const, title, description?}]. A
// list whose every entry has a string const is read as encoding/json
// decodes it into a struct (member names in any letter case, a null title
// ignored); otherwise each entry is read by its exact member names, and
// the first bad one is named.
func titledOptions(n *node, where string) ([]Option, error) {
	if n.kind == '[' && optionCount(len(n.elems)) == nil {
		opts := make([]Option, len(n.elems))
		ok := true
		for i, e := range n.elems {
			if opts[i], ok = structOption(e); !ok {
				break
			}
		}
		if ok {
			return opts, nil
		}
	}
	list, ok := n.list()
	if !ok {
		return nil, fmt.Errorf("%s must be an array", where)
	}
	if err := optionCount(len(list)); err != nil {
		return nil, err
	}
	opts := make([]Option, len(list))
	for i, e := range list {
		if !e.object() {
			return nil, fmt.Errorf("%s[%d] must be an object with const and title", where, i)
		}
		c, ok := e.get("const").asString()
		if !ok {
			return nil, fmt.Errorf("%s[%d] needs a string const", where, i)
		}
		title, err := optString(e, "title")
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %s", where, i, err)
		}
		desc, err := optString(e, "description")
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %s", where, i, err)
		}
		if title == "" {
			title = c
		}
		opts[i] = Option{Value: c, Title: title, Description: desc}
	}
	return opts, nil
}

// structOption reads one entry as json.Unmarshal into struct {Const
// *string; Title, Description string} does, and reports whether that
// succeeds with a const.
func structOption(e *node) (Option, bool) {
	if e.kind != '{' {
		return Option{}, false
	}
	var o Option
	hasConst := false
	for i, k := range e.keys {
		v := e.elems[i]
		var dst *string
		switch {
		case strings.EqualFold(k, "const"):
			if v.kind == 'n' {
				hasConst = false
				continue
			}
			dst, hasConst = &o.Value, true
		case strings.EqualFold(k, "title"):
			dst = &o.Title
		case strings.EqualFold(k, "description"):
			dst = &o.Description
		default:
			continue
		}
		switch v.kind {
		case '"':
			*dst = v.str
		case 'n':
		default:
			return Option{}, false
		}
	}
	if o.Title == "" {
		o.Title = o.Value
	}
	return o, hasConst
}

func optionCount(n int) error {
	if n == 0 {
		return errors.New("a choice needs at least one option")
	}
	if n > MaxOptions {
		return fmt.Errorf("more than %d options", MaxOptions)
	}
	return nil
}

func indexOptions(f *Field) error {
	f.options = make(map[string]int, len(f.Options))
	for i, o := range f.Options {
		if _, dup := f.options[o.Value]; dup {
			return fmt.Errorf("option %s appears twice", quoteShort(o.Value))
		}
		f.options[o.Value] = i
	}
	return nil
}
