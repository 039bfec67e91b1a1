package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
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

// optCount reads a non-negative whole-number keyword such as minLength.
func optCount(m map[string]json.RawMessage, key string) (*int, error) {
	raw, ok := m[key]
	if !ok {
		return nil, nil
	}
	var x float64
	if err := json.Unmarshal(raw, &x); err != nil || x < 0 || x != float64(int(x)) || x > 1<<31 {
		return nil, fmt.Errorf("%s must be a non-negative whole number", key)
	}
	n := int(x)
	return &n, nil
}

func optNumber(m map[string]json.RawMessage, key string) (*float64, error) {
	raw, ok := m[key]
	if !ok {
		return nil, nil
	}
	var x float64
	if err := json.Unmarshal(raw, &x); err != nil {
		return nil, fmt.Errorf("%s must be a number", key)
	}
	return &x, nil
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
		return fmt.Errorf("format %q is not supported (email, uri, date, date-time)", format)
	}
	if f.Pattern, err = optString(m, "pattern"); err != nil {
		return err
	}
	if f.Pattern != "" {
		re, err := regexp.Compile(ecmaToRE2(f.Pattern))
		if err != nil {
			f.PatternSkipped = true
		} else {
			f.re = re
		}
	}
	return nil
}

// ecmaToRE2 rewrites the one common ECMA-262 escape that RE2 spells
// differently, \uXXXX, as \x{XXXX}. Anything else RE2 cannot compile
// (lookaround, backreferences) makes the pattern skipped. Hand-written:
// no Go library translates ECMA-262 patterns to RE2.
func ecmaToRE2(p string) string {
	if !strings.Contains(p, `\u`) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			if p[i+1] == 'u' && i+6 <= len(p) && isHex(p[i+2:i+6]) {
				b.WriteString(`\x{` + p[i+2:i+6] + `}`)
				i += 5
				continue
			}
			b.WriteString(p[i : i+2])
			i++
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

func isHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

func parseNumber(f *Field, m map[string]json.RawMessage) error {
	var err error
	if f.Minimum, err = optNumber(m, "minimum"); err != nil {
		return err
	}
	if f.Maximum, err = optNumber(m, "maximum"); err != nil {
		return err
	}
	if f.Minimum != nil && f.Maximum != nil && *f.Minimum > *f.Maximum {
		return fmt.Errorf("minimum %s is above maximum %s", FormatNumber(*f.Minimum), FormatNumber(*f.Maximum))
	}
	return nil
}

func parseArray(f *Field, m map[string]json.RawMessage) error {
	f.Kind = KindMultiSelect
	items, err := objectOf(m["items"])
	if err != nil {
		return errors.New("a multi-select needs items with enum or anyOf")
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
	default:
		return errors.New("a multi-select needs items with enum or anyOf")
	}
	if err != nil {
		return err
	}
	if err := indexOptions(f); err != nil {
		return err
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
	if f.MinItems != nil && *f.MinItems > len(f.Options) {
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
			return fmt.Errorf("option %q appears twice", o.Value)
		}
		f.options[o.Value] = i
	}
	return nil
}
