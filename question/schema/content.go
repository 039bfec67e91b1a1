package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// FieldError is one field's problem: the key and a short reason such as
// "above maximum 100".
type FieldError struct {
	Key    string
	Reason string
}

// Error returns `"key": reason`; the key is quoted with Go escaping and the
// reason is sanitized, so the message is safe to print.
func (e FieldError) Error() string {
	return fmt.Sprintf("%q: %s", e.Key, sanitize.Line(e.Reason))
}

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
// a string for string and select, a number (json.Number, float64, int64,
// ...) for number and integer, bool for boolean, []string for multi-select
// and list, the const itself for a const. []any of strings is accepted too.
func (f *Field) Validate(v any) error {
	_, err := f.Normalize(v)
	return err
}

// Normalize converts v to the field's typed value and checks it; on error
// the value is nil. Numbers come back as json.Number in JSON's own
// spelling (8e3 becomes 8000, an integer 30.0 becomes 30), exact however
// large.
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
		return s, checkOption(s, f)
	case KindBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, errors.New("not true or false")
		}
		return b, nil
	case KindNumber, KindInteger:
		n, ok := toNumber(v)
		if !ok {
			return nil, errors.New("not a number")
		}
		if f.Kind == KindInteger {
			if !n.dec.whole() {
				return nil, errors.New("not a whole number")
			}
			n.text = json.Number(n.dec.integerString())
		}
		return n.text, f.checkNumber(n)
	case KindMultiSelect:
		vs, ok := toStrings(v)
		if !ok {
			return nil, errors.New("not a list of strings")
		}
		return vs, f.checkItems(vs)
	case KindList:
		vs, ok := toStrings(v)
		if !ok {
			return nil, errors.New("not a list of strings")
		}
		return vs, f.checkList(vs)
	case KindConst:
		if !sameConst(v, f.Const) {
			return nil, fmt.Errorf("must be %s", constText(f.Const))
		}
		return f.Const, nil
	}
	return nil, fmt.Errorf("unknown kind %v", f.Kind)
}

// sameConst reports whether v is the const c (numbers compared exactly).
func sameConst(v, c any) bool {
	if cn, ok := c.(json.Number); ok {
		vn, ok := toNumber(v)
		return ok && vn.text == cn
	}
	return v == c
}

// constText shows a const in a message: a number or boolean as JSON, a
// string quoted and sanitized.
func constText(c any) string {
	if s, ok := c.(string); ok {
		return quoteShort(s)
	}
	return fmt.Sprint(c)
}

func (f *Field) checkString(s string) error {
	if f.MinLength != nil {
		if err := checkMinLength(s, *f.MinLength); err != nil {
			return err
		}
	}
	if f.MaxLength != nil {
		if err := checkMaxLength(s, *f.MaxLength); err != nil {
			return err
		}
	}
	if err := checkFormat(s, f.Format); err != nil {
		return err
	}
	if f.re != nil {
		return checkPattern(s, f.re)
	}
	return nil
}

func (f *Field) checkNumber(n number) error {
	d := n.dec
	if b := f.min; b != nil && d.cmp(b.d) < 0 {
		return fmt.Errorf("below minimum %s", b.text)
	}
	if b := f.xmin; b != nil && d.cmp(b.d) <= 0 {
		return fmt.Errorf("must be above %s", b.text)
	}
	if b := f.max; b != nil && d.cmp(b.d) > 0 {
		return fmt.Errorf("above maximum %s", b.text)
	}
	if b := f.xmax; b != nil && d.cmp(b.d) >= 0 {
		return fmt.Errorf("must be below %s", b.text)
	}
	return nil
}

func (f *Field) checkItems(vs []string) error {
	for _, v := range vs {
		if err := checkOption(v, f); err != nil {
			return err
		}
	}
	if err := checkUnique(vs); err != nil {
		return err
	}
	return f.checkCount(len(vs))
}

func (f *Field) checkCount(n int) error {
	if f.MinItems != nil {
		if err := checkMinItems(n, *f.MinItems); err != nil {
			return err
		}
	}
	if f.MaxItems != nil {
		return checkMaxItems(n, *f.MaxItems)
	}
	return nil
}

// checkList checks every line of a list against the item schema, then
// uniqueness and the count.
func (f *Field) checkList(vs []string) error {
	for i, v := range vs {
		if f.Item != nil {
			if err := f.Item.checkString(v); err != nil {
				return fmt.Errorf("line %d: %s", i+1, err)
			}
		}
	}
	if f.UniqueItems {
		if err := checkUnique(vs); err != nil {
			return err
		}
	}
	if f.MaxItems != nil && len(vs) > *f.MaxItems {
		return fmt.Errorf("at most %s", plural(*f.MaxItems, "line"))
	}
	if f.MinItems != nil && len(vs) < *f.MinItems {
		return fmt.Errorf("at least %s", plural(*f.MinItems, "line"))
	}
	return nil
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
			if !f.Nullable {
				errs = append(errs, FieldError{f.Key, "null (leave the key out instead)"})
			}
			continue
		}
		if err := f.Validate(v); err != nil {
			errs = append(errs, FieldError{f.Key, err.Error()})
		}
	}
	if s.unknownKey(content) { // sorted only when there is one to say
		for _, k := range sortedKeys(content) {
			if s.Field(k) == nil {
				errs = append(errs, FieldError{k, "not in the schema"})
			}
		}
	}
	if len(errs) > 0 {
		return &ContentError{Fields: errs}
	}
	return nil
}

// unknownKey reports whether content has a key the schema does not.
func (s *Schema) unknownKey(content map[string]any) bool {
	for k := range content {
		if s.Field(k) == nil {
			return true
		}
	}
	return false
}
