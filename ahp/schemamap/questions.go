package schemamap

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/schema"
)

// FromQuestions builds the form for a request's questions: a restricted
// schema in the questions' order, parsed by package schema like any
// agent's, so a form from a host gets the same validation. A free-form
// single-select gets an "Other" companion field (and, when required, an
// option that means other); a free-form multi-select a companion "Other
// (besides the choices)"; a multi-select without options is a list of
// free strings. A question of a kind elicit does not know is left out:
// notes says so (sanitized), and an accept needing it is refused by the
// host.
func FromQuestions(qs []ahp.Question) (*Map, []string, error) {
	m := &Map{Questions: qs, companion: map[string]string{}, list: map[string]bool{}}
	var notes []string
	taken := map[string]bool{}
	for _, q := range qs {
		taken[q.ID] = true
	}
	var props bytes.Buffer
	var required []string
	n := 0
	add := func(key string, p map[string]any) {
		if n > 0 {
			props.WriteByte(',')
		}
		n++
		k, _ := json.Marshal(key)
		v, _ := json.Marshal(p)
		props.Write(k)
		props.WriteByte(':')
		props.Write(v)
	}
	for _, q := range qs {
		if !q.Known() {
			notes = append(notes, fmt.Sprintf("question %q is of a kind elicit does not know (%q); it cannot be answered here", sanitize.Line(q.ID), sanitize.Line(q.Kind)))
			continue
		}
		p := map[string]any{}
		if q.Title != "" {
			p["title"] = q.Title
			if q.Message != "" && q.Message != q.Title {
				p["description"] = q.Message
			}
		} else if q.Message != "" {
			p["title"] = q.Message
		}
		if len(q.DefaultValue) > 0 {
			p["default"] = json.RawMessage(q.DefaultValue)
		}
		companion := ""
		switch q.Kind {
		case ahp.KindText:
			p["type"] = "string"
			if q.Format != "" {
				p["format"] = q.Format
			}
			setNum(p, "minLength", q.Min)
			setNum(p, "maxLength", q.Max)
		case ahp.KindNumber, ahp.KindInteger:
			p["type"] = q.Kind
			setNum(p, "minimum", q.Min)
			setNum(p, "maximum", q.Max)
		case ahp.KindBoolean:
			p["type"] = "boolean"
		case ahp.KindSingleSelect:
			p["type"] = "string"
			opts := oneOf(q.Options)
			if q.AllowFreeformInput {
				companion = freeKey(q.ID, taken, "_custom", "_other")
				if q.Required {
					opts = append(opts, map[string]any{"const": otherOption, "title": "Other (write your own below)"})
				}
			}
			if len(opts) == 0 {
				notes = append(notes, fmt.Sprintf("question %q offers no options", sanitize.Line(q.ID)))
				continue
			}
			p["oneOf"] = opts
		case ahp.KindMultiSelect:
			p["type"] = "array"
			setNum(p, "minItems", q.Min)
			setNum(p, "maxItems", q.Max)
			if len(q.Options) == 0 {
				p["items"] = map[string]any{"type": "string"}
				m.list[q.ID] = true
				break
			}
			p["items"] = map[string]any{"anyOf": oneOf(q.Options)}
			if q.AllowFreeformInput {
				companion = freeKey(q.ID, taken, "_more", "_besides")
			}
		}
		add(q.ID, p)
		if q.Required {
			required = append(required, q.ID)
		}
		if companion != "" {
			title := "Other"
			if q.Kind == ahp.KindMultiSelect {
				title = "Other (besides the choices)"
			}
			add(companion, map[string]any{"type": "string", "title": title})
			m.companion[q.ID] = companion
		}
	}
	req, _ := json.Marshal(required)
	if required == nil {
		req = []byte("[]")
	}
	raw := []byte(`{"type":"object","properties":{` + props.String() + `},"required":` + string(req) + `}`)
	s, err := schema.ParseSchema(raw)
	if err != nil {
		return nil, notes, err
	}
	m.Schema = s
	return m, notes, nil
}

// freeKey is a key for a companion field no question uses.
func freeKey(id string, taken map[string]bool, suffixes ...string) string {
	for i := 0; ; i++ {
		for _, s := range suffixes {
			k := id + s
			if i > 0 {
				k = fmt.Sprintf("%s%s%d", id, s, i)
			}
			if !taken[k] {
				taken[k] = true
				return k
			}
		}
	}
}

func setNum(p map[string]any, key string, n *json.Number) {
	if n != nil {
		p[key] = *n
	}
}

func oneOf(os []ahp.Option) []any {
	out := make([]any, 0, len(os))
	for _, o := range os {
		e := map[string]any{"const": o.ID, "title": o.Label}
		if o.Label == "" {
			e["title"] = o.ID
		}
		if o.Description != "" {
			e["description"] = o.Description
		}
		out = append(out, e)
	}
	return out
}
