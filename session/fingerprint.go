package session

import (
	"fmt"

	"github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/question/schema"
)

// FormFingerprint is Fingerprint of a parsed form: its property keys and
// kinds, in order. Every front end keys a form's memory with it, so the
// same form is remembered alike wherever it was answered.
func FormFingerprint(s *schema.Schema) string {
	if s == nil {
		return ""
	}
	fs := make([]history.Field, len(s.Fields))
	for i, f := range s.Fields {
		fs[i] = history.Field{Key: f.Key, Type: fmt.Sprint(f.Kind)}
	}
	return history.Fingerprint(fs)
}

// Secret reports, for a form's property key, whether its value must not be
// remembered as a suggestion (the field asks for a secret, or is unknown).
func Secret(s *schema.Schema) func(key string) bool {
	return func(key string) bool {
		if s == nil {
			return true
		}
		f := s.Field(key)
		return f == nil || f.Secret
	}
}
