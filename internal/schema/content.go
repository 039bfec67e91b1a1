package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
)

// FieldError is one field's problem: the key and a short reason such as
// "above maximum 100".
type FieldError struct {
	Key    string
	Reason string
}

// Error returns `"key": reason`.
func (e FieldError) Error() string { return fmt.Sprintf("%q: %s", e.Key, e.Reason) }

// ContentError lists every bad field of a content object, in schema order
// (keys the schema does not know come last).
type ContentError struct {
	Fields []FieldError
}

// Error joins every field's problem with "; ".
func (e *ContentError) Error() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = f.Error()
	}
	return strings.Join(parts, "; ")
}

// Validate checks one typed value against every constraint of the field:
// a string for string and select, float64 for number, int64 for integer,
// bool for boolean, []string for multi-select. Looser Go types that JSON
// decoding produces (float64 for an integer, []any of strings) are accepted
// too.
func (f *Field) Validate(v any) error {
	_, err := f.Normalize(v)
	return err
}

// Normalize converts v to the field's typed value and checks it; on error
// the value is nil.
func (f *Field) Normalize(v any) (any, error) {
	typed, err := f.typed(v)
	if err != nil {
		return nil, err
	}
	return typed, nil
}

func (f *Field) typed(v any) (any, error) {
	switch f.Kind {
	case KindString:
		s, ok := v.(string)
		if !ok {
			return nil, errors.New("not a string")
		}
		return s, f.checkString(s)
	case KindSelect:
		s, ok := v.(string)
		if !ok {
			return nil, errors.New("not a string")
		}
		return s, CheckOption(s, f)
	case KindBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, errors.New("not true or false")
		}
		return b, nil
	case KindNumber:
		x, ok := toFloat(v)
		if !ok {
			return nil, errors.New("not a number")
		}
		return x, f.checkNumber(x)
	case KindInteger:
		x, ok := toFloat(v)
		if !ok {
			return nil, errors.New("not a number")
		}
		if n, isInt := v.(int64); isInt {
			return n, f.checkNumber(float64(n))
		}
		if err := CheckInteger(x); err != nil {
			return nil, err
		}
		return int64(x), f.checkNumber(x)
	case KindMultiSelect:
		vs, ok := toStrings(v)
		if !ok {
			return nil, errors.New("not a list of strings")
		}
		return vs, f.checkItems(vs)
	}
	return nil, fmt.Errorf("unknown kind %v", f.Kind)
}

func (f *Field) checkString(s string) error {
	if f.MinLength != nil {
		if err := CheckMinLength(s, *f.MinLength); err != nil {
			return err
		}
	}
	if f.MaxLength != nil {
		if err := CheckMaxLength(s, *f.MaxLength); err != nil {
			return err
		}
	}
	if err := CheckFormat(s, f.Format); err != nil {
		return err
	}
	if f.re != nil {
		return CheckPattern(s, f.re)
	}
	return nil
}

func (f *Field) checkNumber(x float64) error {
	if err := CheckFinite(x); err != nil {
		return err
	}
	if f.Minimum != nil {
		if err := CheckMinimum(x, *f.Minimum); err != nil {
			return err
		}
	}
	if f.Maximum != nil {
		return CheckMaximum(x, *f.Maximum)
	}
	return nil
}

func (f *Field) checkItems(vs []string) error {
	for _, v := range vs {
		if err := CheckOption(v, f); err != nil {
			return err
		}
	}
	if err := CheckUnique(vs); err != nil {
		return err
	}
	if f.MinItems != nil {
		if err := CheckMinItems(len(vs), *f.MinItems); err != nil {
			return err
		}
	}
	if f.MaxItems != nil {
		return CheckMaxItems(len(vs), *f.MaxItems)
	}
	return nil
}

// toFloat accepts the numeric types a caller or a JSON decoder produces.
func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case json.Number:
		x, err := n.Float64()
		return x, err == nil && !math.IsInf(x, 0)
	}
	return 0, false
}

func toStrings(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		out := make([]string, len(l))
		for i, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out[i] = s
		}
		return out, true
	}
	return nil, false
}

// Check re-checks a content object before it is sent: every required field
// present, every value of the right type and within its constraints, no key
// the schema does not have. The error, a *ContentError, lists every bad
// field at once.
func (s *Schema) Check(content map[string]any) error {
	var errs []FieldError
	for _, f := range s.Fields {
		v, ok := content[f.Key]
		if !ok {
			if f.Required {
				errs = append(errs, FieldError{f.Key, "required"})
			}
			continue
		}
		if v == nil {
			errs = append(errs, FieldError{f.Key, "null (leave the key out instead)"})
			continue
		}
		if err := f.Validate(v); err != nil {
			errs = append(errs, FieldError{f.Key, err.Error()})
		}
	}
	for _, k := range sortedKeys(content) {
		if s.Field(k) == nil {
			errs = append(errs, FieldError{k, "not in the schema"})
		}
	}
	if len(errs) > 0 {
		return &ContentError{Fields: errs}
	}
	return nil
}
