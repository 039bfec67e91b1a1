package ahp

import (
	"encoding/json"
	"fmt"
)

// Question kinds (ChatInputQuestionKind). Kinds are open: a question of
// another kind is kept and shown as unanswerable, never refused.
const (
	KindText         = "text"
	KindNumber       = "number"
	KindInteger      = "integer"
	KindBoolean      = "boolean"
	KindSingleSelect = "single-select"
	KindMultiSelect  = "multi-select"
)

// Answer value kinds (ChatInputAnswerValueKind).
const (
	ValueText         = "text"
	ValueNumber       = "number"
	ValueBoolean      = "boolean"
	ValueSelected     = "selected"
	ValueSelectedMany = "selected-many"
)

// Answer states (ChatInputAnswerState).
const (
	Draft     = "draft"
	Submitted = "submitted"
	Skipped   = "skipped"
)

// Request is one input request: a message, an optional URL to review, and
// questions keyed by stable ids with their synced answers.
type Request struct {
	ID        string            `json:"id"`
	Message   string            `json:"message,omitempty"`
	URL       string            `json:"url,omitempty"`
	Questions []Question        `json:"questions,omitempty"`
	Answers   map[string]Answer `json:"answers,omitempty"`
	// Meta is the request's _meta: elicit puts what kind of question it
	// is and when it was asked under "elicit" (see RequestMeta); other
	// clients ignore it.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// Question returns the question with that id, or nil.
func (r *Request) Question(id string) *Question {
	for i := range r.Questions {
		if r.Questions[i].ID == id {
			return &r.Questions[i]
		}
	}
	return nil
}

// Clone is a deep copy of r.
func (r Request) Clone() Request {
	out := r
	out.Questions = make([]Question, len(r.Questions))
	for i, q := range r.Questions {
		out.Questions[i] = q.clone()
	}
	if r.Questions == nil {
		out.Questions = nil
	}
	out.Answers = cloneAnswers(r.Answers)
	if r.Meta != nil {
		out.Meta = append(json.RawMessage(nil), r.Meta...)
	}
	return out
}

func cloneAnswers(m map[string]Answer) map[string]Answer {
	if m == nil {
		return nil
	}
	out := make(map[string]Answer, len(m))
	for k, a := range m {
		out[k] = a.Clone()
	}
	return out
}

// Question is one question of a request. Min and Max are lengths for text,
// bounds for number and integer, and item counts for multi-select.
type Question struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Title    string `json:"title,omitempty"`
	Message  string `json:"message"`
	Required bool   `json:"required,omitempty"`

	Format             string          `json:"format,omitempty"`
	Min                *json.Number    `json:"min,omitempty"`
	Max                *json.Number    `json:"max,omitempty"`
	DefaultValue       json.RawMessage `json:"defaultValue,omitempty"`
	Options            []Option        `json:"options,omitempty"`
	AllowFreeformInput bool            `json:"allowFreeformInput,omitempty"`
}

func (q Question) clone() Question {
	q.Options = append([]Option(nil), q.Options...)
	q.DefaultValue = append(json.RawMessage(nil), q.DefaultValue...)
	if len(q.DefaultValue) == 0 {
		q.DefaultValue = nil
	}
	return q
}

// HasOption reports whether id is one of the question's option ids.
func (q *Question) HasOption(id string) bool {
	for _, o := range q.Options {
		if o.ID == id {
			return true
		}
	}
	return false
}

// Known reports whether elicit knows the question's kind.
func (q *Question) Known() bool {
	switch q.Kind {
	case KindText, KindNumber, KindInteger, KindBoolean, KindSingleSelect, KindMultiSelect:
		return true
	}
	return false
}

// Option is one choice of a select.
type Option struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	Recommended bool   `json:"recommended,omitempty"`
}

// Answer is one question's answer: a draft or submitted Value, or skipped
// (with optional free-form text).
type Answer struct {
	State          string   `json:"state"`
	Value          *Value   `json:"value,omitempty"`
	FreeformValues []string `json:"freeformValues,omitempty"`
}

// Clone is a deep copy of a.
func (a Answer) Clone() Answer {
	if a.Value != nil {
		v := a.Value.Clone()
		a.Value = &v
	}
	a.FreeformValues = append([]string(nil), a.FreeformValues...)
	if len(a.FreeformValues) == 0 {
		a.FreeformValues = nil
	}
	return a
}

// Value is an answer's value, tagged by Kind: Text for text, Number for
// number, Bool for boolean, Selected for selected, Many for selected-many;
// Freeform is text given instead of (selected) or besides (selected-many)
// the options. A value of a kind elicit does not know keeps its JSON in Raw.
type Value struct {
	Kind     string
	Text     string
	Number   json.Number
	Bool     bool
	Selected string
	Many     []string
	Freeform []string
	Raw      json.RawMessage
}

// Clone is a deep copy of v.
func (v Value) Clone() Value {
	v.Many = append([]string(nil), v.Many...)
	if len(v.Many) == 0 && v.Kind != ValueSelectedMany {
		v.Many = nil
	}
	v.Freeform = append([]string(nil), v.Freeform...)
	if len(v.Freeform) == 0 {
		v.Freeform = nil
	}
	v.Raw = append(json.RawMessage(nil), v.Raw...)
	if len(v.Raw) == 0 {
		v.Raw = nil
	}
	return v
}

type wireValue struct {
	Kind     string          `json:"kind"`
	Value    json.RawMessage `json:"value,omitempty"`
	Freeform []string        `json:"freeformValues,omitempty"`
}

// MarshalJSON writes {kind, value, freeformValues?}.
func (v Value) MarshalJSON() ([]byte, error) {
	w := wireValue{Kind: v.Kind}
	var err error
	switch v.Kind {
	case ValueText:
		w.Value, err = json.Marshal(v.Text)
	case ValueNumber:
		n := v.Number
		if n == "" {
			n = "0"
		}
		w.Value = json.RawMessage(n)
	case ValueBoolean:
		w.Value, err = json.Marshal(v.Bool)
	case ValueSelected:
		w.Value, err = json.Marshal(v.Selected)
		w.Freeform = v.Freeform
	case ValueSelectedMany:
		many := v.Many
		if many == nil {
			many = []string{}
		}
		w.Value, err = json.Marshal(many)
		w.Freeform = v.Freeform
	default:
		w.Value = v.Raw
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads {kind, value, freeformValues?}; the value must have
// the kind's JSON type.
func (v *Value) UnmarshalJSON(b []byte) error {
	var w wireValue
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*v = Value{Kind: w.Kind, Freeform: w.Freeform}
	var err error
	switch w.Kind {
	case ValueText:
		err = strict(w.Value, &v.Text)
	case ValueNumber:
		err = strict(w.Value, &v.Number)
	case ValueBoolean:
		err = strict(w.Value, &v.Bool)
	case ValueSelected:
		err = strict(w.Value, &v.Selected)
	case ValueSelectedMany:
		err = strict(w.Value, &v.Many)
		if err == nil && v.Many == nil {
			v.Many = []string{}
		}
	default:
		v.Raw = w.Value
	}
	if err != nil {
		return fmt.Errorf("a %q value: %w", w.Kind, err)
	}
	return nil
}

// strict decodes a value that must be present and not null.
func strict(raw json.RawMessage, into any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return fmt.Errorf("missing value")
	}
	if n, ok := into.(*json.Number); ok {
		dec := json.NewDecoder(bytesReader(raw))
		dec.UseNumber()
		var x any
		if err := dec.Decode(&x); err != nil {
			return err
		}
		f, isNum := x.(json.Number)
		if !isNum {
			return fmt.Errorf("not a number")
		}
		*n = f
		return nil
	}
	return json.Unmarshal(raw, into)
}
