package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/schemamap"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/schema"
)

// checked is a form's values, read and checked as the terminal reads and
// checks them (package schema's rules), ready to send.
type checked struct {
	m       *schemamap.Map
	content map[string]any
}

// formError is why a form's values cannot be sent: each bad field's
// reason, or one message for the whole form.
type formError struct {
	fields  map[string]string
	message string
}

// checkForm reads the page's values for request r's form. A string is
// read as typed text (schema.Field.ParseInput: numbers, an option's
// value or title, a list's lines; empty is no answer), anything else as
// the field's JSON value; a field left out or null has no answer. Then
// the content is checked whole (schema.Schema.Check), as before it goes
// to an agent.
func checkForm(r ahp.Request, values map[string]json.RawMessage) (*checked, *formError) {
	m, notes, err := schemamap.FromQuestions(r.Questions)
	if err != nil {
		return nil, &formError{message: "elicit cannot show this form: " + sanitize.Line(err.Error())}
	}
	if len(notes) > 0 {
		return nil, &formError{message: "This form holds a question elicit cannot show (" + sanitize.Line(notes[0]) + "): answer it at its terminal."}
	}
	content := map[string]any{}
	bad := map[string]string{}
	for _, f := range m.Schema.Fields {
		if f.Kind == schema.KindConst {
			content[f.Key] = f.Const
			continue
		}
		v, err := fieldValue(f, values[f.Key])
		switch {
		case err != nil:
			bad[f.Key] = sanitize.Line(err.Error())
		case v != nil:
			content[f.Key] = v
		case f.SendNull:
			content[f.Key] = nil
		}
	}
	if len(bad) == 0 {
		var ce *schema.ContentError
		if err := m.Schema.Check(content); errors.As(err, &ce) {
			for _, fe := range ce.Fields {
				bad[fe.Key] = sanitize.Line(fe.Reason)
			}
		} else if err != nil {
			return nil, &formError{message: sanitize.Line(err.Error())}
		}
	}
	if len(bad) > 0 {
		return nil, &formError{fields: bad, message: "Some answers need another look."}
	}
	return &checked{m: m, content: content}, nil
}

// fieldValue is one field's typed value from the page (nil: no answer).
func fieldValue(f *schema.Field, raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if len(raw) > 0 {
		if err := dec.Decode(&v); err != nil {
			return nil, errors.New("could not be read")
		}
	}
	switch v := v.(type) {
	case nil:
		return f.ParseInput("")
	case string:
		return f.ParseInput(v)
	case []any:
		if len(v) == 0 {
			return f.ParseInput("")
		}
	}
	return f.DecodeJSON(raw)
}

// answers are the checked values as the request's answers, submitted.
func (c *checked) answers() map[string]ahp.Answer { return c.m.Answers(c.content, ahp.Submitted) }

// review lists the answers as the review step shows them, in the form's
// order: an option by its title, a yes or no, a secret hidden.
func (c *checked) review() []reviewLine {
	var out []reviewLine
	for _, f := range c.m.Schema.Fields {
		v, ok := c.content[f.Key]
		if !ok || v == nil {
			continue
		}
		line := reviewLine{Key: f.Key, Label: f.Label(), Value: display(f, v), Secret: f.Secret}
		if f.Secret {
			line.Value = "•••"
		}
		out = append(out, line)
	}
	return out
}

// display is a typed value in words.
func display(f *schema.Field, v any) string {
	title := func(s string) string {
		if i, ok := f.OptionIndex(s); ok {
			return sanitize.Line(f.Options[i].Title)
		}
		return sanitize.Line(s)
	}
	switch v := v.(type) {
	case string:
		if f.Kind == schema.KindSelect {
			return title(v)
		}
		return sanitize.Text(v)
	case bool:
		if v {
			return "Yes"
		}
		return "No"
	case json.Number:
		return v.String()
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = title(s)
		}
		if f.Kind == schema.KindList {
			return sanitize.Text(strings.Join(parts, "\n"))
		}
		return strings.Join(parts, ", ")
	}
	b, _ := json.Marshal(v)
	return sanitize.Line(string(b))
}
