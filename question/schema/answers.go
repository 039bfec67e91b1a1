package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// DecodeJSON reads a JSON value for the field as FromAnswers does: it turns
// it into the field's typed value and checks it against the field's
// constraints. JSON null gives (nil, nil): no value. A JSON string for a
// number, integer, boolean or multi-select field is read as typed text
// (ParseInput's rules), because hand-written answer files often quote
// numbers.
func (f *Field) DecodeJSON(raw json.RawMessage) (any, error) {
	// The schema's own one-pass reader (tree.go), whose values are what a
	// json.Decoder with UseNumber gives: a decoder per answer was most of
	// what filling a form from --answers allocated.
	n, ok := readJSON(raw)
	if !ok {
		return nil, fmt.Errorf("not valid JSON")
	}
	return f.decodeValue(n.value())
}

// decodeValue is DecodeJSON for a value already decoded (numbers as
// json.Number).
func (f *Field) decodeValue(v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	if s, ok := v.(string); ok && f.Kind != KindString && f.Kind != KindSelect && f.Kind != KindConst {
		return f.parseText(s)
	}
	return f.Normalize(v)
}

// applyDefault records the property's default, or drops it with a note when
// it breaks the property's own constraints.
func applyDefault(f *Field, d *node) {
	v, err := f.decodeValue(d.value())
	if err != nil {
		f.Notes = append(f.Notes, fmt.Sprintf("default %s dropped: %s", shortJSON(d.raw), sanitize.Line(err.Error())))
		return
	}
	if v == nil {
		return
	}
	f.Default, f.HasDefault = v, true
}

// shortJSON renders a JSON value compactly for a note, sanitized and cut to
// about 40 characters.
func shortJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return "(invalid)"
	}
	s := sanitize.Line(b.String())
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:39]) + "…"
	}
	return s
}

// FromAnswers builds content without a person, for --answers and for runs
// with no terminal: each field takes its answer, else its default; a
// required field with neither, or an answer that fails validation, is an
// error (a *ContentError listing every such field). Answer keys the schema
// does not have are ignored, since one answers file serves many forms. A
// returned multi-select slice is never shared with the schema.
func (s *Schema) FromAnswers(answers map[string]json.RawMessage) (map[string]any, error) {
	content := map[string]any{}
	var errs []FieldError
	for _, f := range s.Fields {
		if raw, ok := answers[f.Key]; ok {
			v, err := f.DecodeJSON(raw)
			if err != nil {
				errs = append(errs, FieldError{f.Key, err.Error()})
				continue
			}
			if v != nil {
				content[f.Key] = v
				continue
			}
		}
		switch {
		case f.HasDefault:
			content[f.Key] = cloneValue(f.Default)
		case f.SendNull:
			content[f.Key] = nil
		case f.Required:
			errs = append(errs, FieldError{f.Key, "required, and neither the answers nor a default give a value"})
		}
	}
	if len(errs) > 0 {
		return nil, &ContentError{Fields: errs}
	}
	return content, nil
}

func cloneValue(v any) any {
	if l, ok := v.([]string); ok {
		return slices.Clone(l)
	}
	return v
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, strings.Compare)
	return keys
}
