package forms

import (
	"encoding/json"
	"time"
)

// prefill starts the form from the answers given last time: each value
// the field still accepts replaces its default. It returns the line the
// header shows ("" when nothing was prefilled).
func (m *Model) prefill(values map[string]json.RawMessage, at time.Time) string {
	n := 0
	for _, e := range m.entries {
		raw, ok := values[e.f.Key]
		if !ok || e.f.Secret {
			continue
		}
		v, err := e.f.DecodeJSON(raw)
		if err != nil || v == nil {
			continue
		}
		e.prefillFrom(v, true)
		e.remembered = true
		n++
	}
	if n == 0 {
		return ""
	}
	s := "answers from last time"
	if !at.IsZero() {
		s += " (" + at.Format("2 Jan") + ")"
	}
	return s + " (↺ marks them; defaults beside)"
}
