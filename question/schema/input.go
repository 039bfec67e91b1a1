package schema

import (
	"encoding/json"
	"errors"
	"strings"
)

// ErrRequired is the reason a required field left empty fails.
var ErrRequired = errors.New("required")

// ParseInput turns what the user typed into the field's typed value and
// checks it: text for a string, a number ("1.5", "-3", "2e3", ".5") as an
// exact json.Number in JSON's spelling, a whole number for an integer (so
// "1.5" is refused; "12345678901234567890" is kept exact), yes/no/true/false
// for a boolean, an option's value or title for a select, comma-separated
// values or titles for a multi-select, and one value a line for a list
// (blank lines are skipped). A const ignores the text and gives its value.
// Empty input on an optional field is (nil, nil): leave the key out (or
// send null, when Field.SendNull). Empty input on a required field fails
// with ErrRequired.
func (f *Field) ParseInput(text string) (any, error) {
	if f.Kind == KindConst {
		return f.Const, nil
	}
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
	case KindNumber, KindInteger:
		d, err := parseDecimal(text)
		if err != nil {
			return nil, err
		}
		return f.Normalize(json.Number(d.String()))
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
	case KindList:
		return f.Normalize(Lines(text))
	case KindConst:
		return f.Const, nil
	}
	return nil, errors.New("unknown kind")
}

// Lines splits a list's text into its values: one a line, blank lines
// and a trailing line break skipped, "\r\n" read as a line break.
func Lines(text string) []string {
	vs := []string{}
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(l) != "" {
			vs = append(vs, l)
		}
	}
	return vs
}

// optionFor finds the option a person meant: its exact value, else the one
// option whose value or title matches ignoring case and surrounding spaces.
func (f *Field) optionFor(text string) (string, error) {
	if f.hasOption(text) {
		return text, nil
	}
	t := strings.TrimSpace(text)
	if f.hasOption(t) {
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
		return "", checkOption(t, f)
	}
	return found, nil
}
