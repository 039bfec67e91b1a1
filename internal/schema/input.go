package schema

import (
	"errors"
	"strconv"
	"strings"
)

// ErrRequired is the reason a required field left empty fails.
var ErrRequired = errors.New("required")

// ParseInput turns what the user typed into the field's typed value and
// checks it: text for a string, a number ("1.5", "-3", "2e3"), a whole
// number for an integer (so "1.5" is refused), yes/no/true/false for a
// boolean, an option's value or title for a select, and comma-separated
// values or titles for a multi-select. Empty input on an optional field is
// (nil, nil): leave the key out. Empty input on a required field fails
// with ErrRequired.
func (f *Field) ParseInput(text string) (any, error) {
	if strings.TrimSpace(text) == "" {
		if f.Required {
			return nil, ErrRequired
		}
		return nil, nil
	}
	return f.parseText(text)
}

func (f *Field) parseText(text string) (any, error) {
	switch f.Kind {
	case KindString:
		return f.Normalize(text)
	case KindNumber:
		x, err := parseNumberText(text)
		if err != nil {
			return nil, err
		}
		return f.Normalize(x)
	case KindInteger:
		t := strings.TrimSpace(text)
		if n, err := strconv.ParseInt(strings.TrimPrefix(t, "+"), 10, 64); err == nil {
			return f.Normalize(n)
		}
		x, err := parseNumberText(t)
		if err != nil {
			return nil, err
		}
		return f.Normalize(x)
	case KindBoolean:
		switch strings.ToLower(strings.TrimSpace(text)) {
		case "y", "yes", "true", "t", "1", "on":
			return true, nil
		case "n", "no", "false", "f", "0", "off":
			return false, nil
		}
		return nil, errors.New("not yes or no")
	case KindSelect:
		v, err := f.optionFor(text)
		if err != nil {
			return nil, err
		}
		return v, nil
	case KindMultiSelect:
		var vs []string
		for _, part := range strings.Split(text, ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			v, err := f.optionFor(part)
			if err != nil {
				return nil, err
			}
			vs = append(vs, v)
		}
		return f.Normalize(vs)
	}
	return nil, errors.New("unknown kind")
}

// parseNumberText accepts decimal numbers as people and JSON write them
// ("42", "-0.5", "+3", "1e3"), not Go's hex floats, underscores or "Inf".
func parseNumberText(text string) (float64, error) {
	t := strings.TrimSpace(text)
	bad := errors.New("not a number")
	if strings.IndexFunc(t, func(r rune) bool { return !strings.ContainsRune("0123456789+-.eE", r) }) >= 0 {
		return 0, bad
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, bad
	}
	return x, CheckFinite(x)
}

// optionFor finds the option a person meant: its exact value, else the one
// option whose value or title matches ignoring case and surrounding spaces.
func (f *Field) optionFor(text string) (string, error) {
	if f.HasOption(text) {
		return text, nil
	}
	t := strings.TrimSpace(text)
	if f.HasOption(t) {
		return t, nil
	}
	found := ""
	for _, o := range f.Options {
		if strings.EqualFold(o.Value, t) || strings.EqualFold(o.Title, t) {
			if found != "" && found != o.Value {
				return "", errors.New("matches more than one option; type its exact value")
			}
			found = o.Value
		}
	}
	if found == "" {
		return "", CheckOption(t, f)
	}
	return found, nil
}
