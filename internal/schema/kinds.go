package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

func optString(m map[string]json.RawMessage, key string) (string, error) {
	raw, ok := m[key]
	if !ok {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s must be a string", key)
	}
	return s, nil
}

// lenientString reads an annotation such as title or description the way
// ACP 1.7.0 does (DefaultOnError): anything but a string, null included,
// is dropped rather than a reason to refuse the schema.
func lenientString(m map[string]json.RawMessage, key string) string {
	s, _ := optString(m, key)
	return s
}

// optCount reads a non-negative whole-number keyword such as minLength.
func optCount(m map[string]json.RawMessage, key string) (*int, error) {
	raw, ok := m[key]
	if !ok {
		return nil, nil
	}
	bad := fmt.Errorf("%s must be a non-negative whole number", key)
	d, err := jsonDecimal(raw)
	if err != nil || d.neg || !d.whole() || d.exp > 10 {
		return nil, bad
	}
	n, err := strconv.Atoi(d.integerString())
	if err != nil || n > 1<<31 {
		return nil, bad
	}
	return &n, nil
}

// jsonDecimal reads a JSON number exactly.
func jsonDecimal(raw json.RawMessage) (decimal, error) {
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil || !json.Valid(raw) || strings.HasPrefix(strings.TrimSpace(string(raw)), `"`) {
		return decimal{}, errNotNumber
	}
	return parseDecimal(n.String())
}

// optBound reads a numeric keyword such as minimum, exactly.
func optBound(m map[string]json.RawMessage, key string) (*bound, error) {
	raw, ok := m[key]
	if !ok {
		return nil, nil
	}
	d, err := jsonDecimal(raw)
	if err != nil {
		return nil, fmt.Errorf("%s must be a number", key)
	}
	return newBound(d), nil
}

func parseString(f *Field, m map[string]json.RawMessage) error {
	_, hasEnum := m["enum"]
	_, hasOneOf := m["oneOf"]
	_, hasNames := m["enumNames"]
	switch {
	case hasEnum && hasOneOf:
		return errors.New("enum and oneOf together are not supported")
	case hasNames && !hasEnum:
		return errors.New("enumNames without enum")
	case hasEnum || hasOneOf:
		for _, k := range []string{"minLength", "maxLength", "pattern", "format"} {
			if _, ok := m[k]; ok {
				return fmt.Errorf("keyword %q does not apply to a choice", k)
			}
		}
		f.Kind = KindSelect
		var err error
		if hasEnum {
			f.Options, err = enumOptions(m["enum"], m["enumNames"])
		} else {
			f.Options, err = titledOptions(m["oneOf"], "oneOf")
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
func parseText(f *Field, m map[string]json.RawMessage) error {
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

func parseArray(f *Field, m map[string]json.RawMessage, p *parser) error {
	f.Kind = KindMultiSelect
	items, err := objectOf(m["items"])
	if err != nil {
		return errors.New("a multi-select needs items with enum or anyOf")
	}
	if items, err = p.resolve(items); err != nil {
		return fmt.Errorf("items: %s", err)
	}
	for k := range items {
		if refused[k] && k != "anyOf" && k != "oneOf" || k == "properties" {
			return fmt.Errorf("items keyword %q is not supported", k)
		}
	}
	if raw, ok := items["type"]; ok {
		var t string
		_ = json.Unmarshal(raw, &t)
		switch t {
		case "string":
		case "object":
			return errors.New("arrays of objects are not supported")
		default:
			return errors.New("array items must be strings")
		}
	}
	switch {
	case items["enum"] != nil:
		f.Options, err = enumOptions(items["enum"], items["enumNames"])
	case items["anyOf"] != nil:
		f.Options, err = titledOptions(items["anyOf"], "items.anyOf")
	case items["oneOf"] != nil:
		f.Options, err = titledOptions(items["oneOf"], "items.oneOf")
	case items["type"] != nil:
		// An array of plain strings (pydantic list[str], zod z.array(z.string())):
		// a list, one value a line, each checked as a string field.
		f.Kind = KindList
		f.Item = &Field{Key: f.Key, Kind: KindString}
		if err := parseText(f.Item, items); err != nil {
			return fmt.Errorf("items: %s", err)
		}
		var u bool
		f.UniqueItems = json.Unmarshal(m["uniqueItems"], &u) == nil && u
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

func enumOptions(rawEnum, rawNames json.RawMessage) ([]Option, error) {
	var vals []any
	if err := json.Unmarshal(rawEnum, &vals); err != nil {
		return nil, errors.New("enum must be an array")
	}
	if err := optionCount(len(vals)); err != nil {
		return nil, err
	}
	var names []string
	if rawNames != nil {
		if err := json.Unmarshal(rawNames, &names); err != nil {
			return nil, errors.New("enumNames must be an array of strings")
		}
		if len(names) != len(vals) {
			return nil, fmt.Errorf("enumNames has %d names for %d enum values", len(names), len(vals))
		}
	}
	opts := make([]Option, len(vals))
	for i, v := range vals {
		s, ok := v.(string)
		if !ok {
			return nil, errors.New("enum values must be strings")
		}
		opts[i] = Option{Value: s, Title: s}
		if names != nil && names[i] != "" {
			opts[i].Title = names[i]
		}
	}
	return opts, nil
}

// titledOptions reads oneOf / anyOf as [{const, title, description?}].
func titledOptions(raw json.RawMessage, where string) ([]Option, error) {
	// Fast path: one decoding pass when every entry is well-formed; the
	// slow path below only runs to name the bad entry.
	var fast []struct {
		Const       *string `json:"const"`
		Title       string  `json:"title"`
		Description string  `json:"description"`
	}
	if json.Unmarshal(raw, &fast) == nil && optionCount(len(fast)) == nil {
		opts := make([]Option, len(fast))
		ok := true
		for i, o := range fast {
			if o.Const == nil {
				ok = false
				break
			}
			opts[i] = Option{Value: *o.Const, Title: o.Title, Description: o.Description}
			if o.Title == "" {
				opts[i].Title = *o.Const
			}
		}
		if ok {
			return opts, nil
		}
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("%s must be an array", where)
	}
	if err := optionCount(len(list)); err != nil {
		return nil, err
	}
	opts := make([]Option, len(list))
	for i, r := range list {
		m, err := objectOf(r)
		if err != nil {
			return nil, fmt.Errorf("%s[%d] must be an object with const and title", where, i)
		}
		var c string
		if err := json.Unmarshal(m["const"], &c); err != nil {
			return nil, fmt.Errorf("%s[%d] needs a string const", where, i)
		}
		title, err := optString(m, "title")
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %s", where, i, err)
		}
		desc, err := optString(m, "description")
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
