package schema

import "strings"

// otherSuffixes are the key suffixes agents use for the free-text companion
// of a choice ("question_0" and "question_0_custom").
var otherSuffixes = []string{"_custom", "_other"}

// linkOther finds the "Other" shape: a select X with a string property
// X_custom. The two are linked (X.OtherKey, companion.OtherOf) only when the
// form can answer both ways: the companion is optional, and X is optional or
// one of its options means "other" and is sent when the user writes their
// own answer. A select with
// an "other" option but no companion only records OtherValue.
func linkOther(s *Schema) {
	for _, f := range s.Fields {
		if f.Kind != KindSelect {
			continue
		}
		for _, o := range f.Options {
			if meansOther(o.Value) || meansOther(o.Title) {
				f.OtherValue = o.Value
				break
			}
		}
		if f.Required && f.OtherValue == "" {
			continue
		}
		for _, suffix := range otherSuffixes {
			c := s.Field(f.Key + suffix)
			if c != nil && c.Kind == KindString && !c.Required && c.OtherOf == "" && c.OtherKey == "" {
				f.OtherKey, c.OtherOf = c.Key, f.Key
				break
			}
		}
	}
}

// meansOther reports whether an option's value or title means "other":
// "Other", "other…", "Other (please specify)", "Other: type below".
func meansOther(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	t = strings.TrimRight(t, ".…: ")
	return t == "other" || t == "__other__" || strings.HasPrefix(t, "other ") ||
		strings.HasPrefix(t, "other(") || strings.HasPrefix(t, "other:") ||
		strings.HasPrefix(t, "other,") || strings.HasPrefix(t, "other…")
}
