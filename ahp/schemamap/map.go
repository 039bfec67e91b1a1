package schemamap

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/question/schema"
)

// otherOption is the option a required single-select with free-form input
// gets in its form, so a person can pick "write my own" (schema.linkOther
// reads it as the "other" choice).
const otherOption = "__other__"

// Map pairs questions with the schema a form shows for them: one field per
// question, and a companion text field for each free-form one.
type Map struct {
	Schema    *schema.Schema
	Questions []ahp.Question
	companion map[string]string // question id -> its free-form field's key
	list      map[string]bool   // a multi-select with no options: a list of free strings
	initial   map[string]any    // the defaults of selects, by question id (Initial)
}

// Companion is the key of the free-form field of question id ("" if none).
func (m *Map) Companion(id string) string { return m.companion[id] }

// QuestionOf is the question a field key belongs to (its own, or the one
// it is the free-form companion of), "" when none.
func (m *Map) QuestionOf(key string) string {
	for _, q := range m.Questions {
		if q.ID == key || m.companion[q.ID] == key {
			return q.ID
		}
	}
	return ""
}

// FromSchema is the questions of an elicitation's schema, one per field:
// string as text (format, length bounds), number, integer, boolean, a
// select as single-select (its "Other" companion folded in as
// allowFreeformInput), a multi-select, and a list of free strings as a
// multi-select without options that takes free-form text. A const field is
// not asked (Content adds it). A default is the question's defaultValue
// where the protocol defines one (text, number, integer, boolean); a
// select's is its option marked recommended and an initial draft answer
// (Initial), as the protocol has it.
func FromSchema(s *schema.Schema) *Map {
	m := &Map{Schema: s, companion: map[string]string{}, list: map[string]bool{}, initial: map[string]any{}}
	for _, f := range s.Fields {
		if f.OtherOf != "" || f.Kind == schema.KindConst {
			continue
		}
		q := ahp.Question{ID: f.Key, Title: f.Title, Message: f.Description, Required: f.Required}
		if q.Message == "" {
			q.Message = f.Title
		}
		if q.Message == "" {
			q.Message = f.Key
		}
		if f.HasDefault {
			switch f.Kind {
			case schema.KindSelect, schema.KindMultiSelect, schema.KindList:
				m.initial[f.Key] = f.Default
			default:
				q.DefaultValue, _ = json.Marshal(f.Default)
			}
		}
		switch f.Kind {
		case schema.KindString:
			q.Kind, q.Format = ahp.KindText, string(f.Format)
			q.Min, q.Max = count(f.MinLength), count(f.MaxLength)
		case schema.KindNumber, schema.KindInteger:
			q.Kind = ahp.KindNumber
			if f.Kind == schema.KindInteger {
				q.Kind = ahp.KindInteger
			}
			q.Min, q.Max = f.Minimum, f.Maximum
			if q.Min == nil {
				q.Min = f.ExclusiveMinimum
			}
			if q.Max == nil {
				q.Max = f.ExclusiveMaximum
			}
		case schema.KindBoolean:
			q.Kind = ahp.KindBoolean
		case schema.KindSelect:
			q.Kind, q.Options = ahp.KindSingleSelect, options(f.Options, m.initial[f.Key])
			if f.OtherKey != "" {
				q.AllowFreeformInput = true
				m.companion[f.Key] = f.OtherKey
			}
		case schema.KindMultiSelect:
			q.Kind, q.Options = ahp.KindMultiSelect, options(f.Options, m.initial[f.Key])
			q.Min, q.Max = count(f.MinItems), count(f.MaxItems)
		case schema.KindList:
			q.Kind, q.AllowFreeformInput = ahp.KindMultiSelect, true
			q.Min, q.Max = count(f.MinItems), count(f.MaxItems)
			m.list[f.Key] = true
		}
		m.Questions = append(m.Questions, q)
	}
	return m
}

func count(n *int) *json.Number {
	if n == nil {
		return nil
	}
	v := json.Number(fmt.Sprint(*n))
	return &v
}

// options are a select's options, those of its default recommended.
func options(os []schema.Option, def any) []ahp.Option {
	out := make([]ahp.Option, len(os))
	for i, o := range os {
		out[i] = ahp.Option{ID: o.Value, Label: o.Title, Description: o.Description}
		switch d := def.(type) {
		case string:
			out[i].Recommended = d == o.Value
		case []string:
			out[i].Recommended = slices.Contains(d, o.Value)
		}
	}
	return out
}

// Initial is the answers a request starts with: a draft of each select's
// default (the protocol defines no defaultValue for selects), nil when
// none has one.
func (m *Map) Initial() map[string]ahp.Answer {
	if len(m.initial) == 0 {
		return nil
	}
	out := map[string]ahp.Answer{}
	for id := range m.initial {
		if a := m.Answer(id, m.initial, ahp.Draft); a != nil {
			out[id] = *a
		}
	}
	return out
}

// Content turns the final answers into an accepted form's content, typed
// and checked as the schema says: submitted answers give values (drafts
// are not submissions), skipped and missing ones are left out, a const is
// added. A value the schema refuses is an error naming the field.
func (m *Map) Content(answers map[string]ahp.Answer) (map[string]any, error) {
	raw := map[string]json.RawMessage{}
	for _, q := range m.Questions {
		a, ok := answers[q.ID]
		if !ok || a.State != ahp.Submitted || a.Value == nil {
			continue
		}
		for k, v := range m.values(q, *a.Value) {
			if v == nil {
				continue
			}
			raw[k], _ = json.Marshal(v)
		}
	}
	content := map[string]any{}
	var errs []schema.FieldError
	for _, f := range m.Schema.Fields {
		r, ok := raw[f.Key]
		switch {
		case f.Kind == schema.KindConst:
			content[f.Key] = f.Const
		case ok:
			v, err := f.DecodeJSON(r)
			if err != nil {
				errs = append(errs, schema.FieldError{Key: f.Key, Reason: err.Error()})
				continue
			}
			if v != nil {
				content[f.Key] = v
			}
		case f.SendNull:
			content[f.Key] = nil
		case f.Required:
			errs = append(errs, schema.FieldError{Key: f.Key, Reason: "required"})
		}
	}
	if len(errs) > 0 {
		return nil, &schema.ContentError{Fields: errs}
	}
	if err := m.Schema.Check(content); err != nil {
		return nil, err
	}
	return content, nil
}

// Answers turns an accepted form's content (or a form's draft) into one
// answer per question in state (ahp.Draft or ahp.Submitted); a question
// with no value is left out.
func (m *Map) Answers(values map[string]any, state string) map[string]ahp.Answer {
	out := map[string]ahp.Answer{}
	for _, q := range m.Questions {
		if a := m.Answer(q.ID, values, state); a != nil {
			out[q.ID] = *a
		}
	}
	return out
}

// Answer is question id's answer from a form's values (keyed by field, as
// forms.Model.Draft gives them), nil when the question has no value, or
// none that fits its kind (a number still being typed as "1.").
func (m *Map) Answer(id string, values map[string]any, state string) *ahp.Answer {
	var q *ahp.Question
	for i := range m.Questions {
		if m.Questions[i].ID == id {
			q = &m.Questions[i]
		}
	}
	if q == nil {
		return nil
	}
	v, has := values[id]
	other, _ := values[m.companion[id]].(string)
	other = strings.TrimSpace(other)
	val := ahp.Value{Kind: ahp.ValueKindFor(q.Kind)}
	switch q.Kind {
	case ahp.KindText:
		s, ok := v.(string)
		if !ok || s == "" {
			return nil
		}
		val.Text = s
	case ahp.KindNumber, ahp.KindInteger:
		n, ok := v.(json.Number)
		if !ok {
			return nil
		}
		val.Number = n
	case ahp.KindBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil
		}
		val.Bool = b
	case ahp.KindSingleSelect:
		s, _ := v.(string)
		if s == otherOption || (other != "" && !q.HasOption(s)) {
			s = ""
		}
		if other != "" {
			val.Freeform = []string{other}
		}
		if s == "" && other == "" {
			return nil
		}
		val.Selected = s
	case ahp.KindMultiSelect:
		l, _ := v.([]string)
		if m.list[id] {
			val.Many, val.Freeform = []string{}, append([]string(nil), l...)
		} else {
			val.Many = append([]string{}, l...)
			if other != "" {
				val.Freeform = []string{other}
			}
		}
		if !has && other == "" {
			return nil
		}
	default:
		return nil
	}
	return &ahp.Answer{State: state, Value: &val}
}

// Values is what a form's fields hold for an answer of question id: its
// own field and, for free-form text, its companion ("" clears a field).
// A skipped or cleared answer empties them.
func (m *Map) Values(id string, a *ahp.Answer) map[string]any {
	for _, q := range m.Questions {
		if q.ID != id {
			continue
		}
		if a == nil || a.Value == nil || a.State == ahp.Skipped {
			out := map[string]any{id: nil}
			if c := m.companion[id]; c != "" {
				out[c] = nil
			}
			return out
		}
		return m.values(q, *a.Value)
	}
	return nil
}

func (m *Map) values(q ahp.Question, v ahp.Value) map[string]any {
	out := map[string]any{}
	c := m.companion[q.ID]
	other := strings.Join(v.Freeform, ", ")
	switch v.Kind {
	case ahp.ValueText:
		out[q.ID] = v.Text
	case ahp.ValueNumber:
		out[q.ID] = v.Number
	case ahp.ValueBoolean:
		out[q.ID] = v.Bool
	case ahp.ValueSelected:
		sel := v.Selected
		if sel == "" && other != "" && m.Schema != nil {
			if f := m.Schema.Field(q.ID); f != nil && f.OtherValue != "" {
				sel = f.OtherValue
			}
		}
		if sel != "" {
			out[q.ID] = sel
		} else {
			out[q.ID] = nil
		}
	case ahp.ValueSelectedMany:
		if m.list[q.ID] {
			out[q.ID] = append([]string{}, v.Freeform...)
			return out
		}
		out[q.ID] = append([]string{}, v.Many...)
	}
	if c != "" {
		if other != "" {
			out[c] = other
		} else {
			out[c] = nil
		}
	}
	return out
}
