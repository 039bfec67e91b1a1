package schema

import (
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// MaxProperties is the most properties a schema may have; a schema with more
// is refused, not truncated.
const MaxProperties = 100

// MaxOptions is the most options a select or multi-select may have; a
// property with more is refused, not truncated.
const MaxOptions = 10000

// Kind is what a property asks for, and so which input the form shows.
type Kind int

// The kinds of the restricted schema.
const (
	KindString      Kind = iota // free text, possibly with a format or pattern
	KindNumber                  // any finite number
	KindInteger                 // a whole number, sent as a JSON integer
	KindBoolean                 // yes or no
	KindSelect                  // one string out of a fixed list
	KindMultiSelect             // any subset of a fixed list of strings
	KindList                    // free strings, one a line (an array of plain strings)
	KindConst                   // a fixed value, shown and sent as is (`const`)
)

var kindNames = [...]string{"string", "number", "integer", "boolean", "select", "multiselect", "list", "const"}

// String returns the kind's lower-case name, such as "multiselect".
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// MarshalText writes the kind by name, so a JSON dump of a Schema is readable.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Format is a string property's `format`.
type Format string

// The formats the restricted schema checks. Any other format is an
// annotation (ACP 1.7.0): the field is a plain string, and a password-like
// format marks it secret.
const (
	FormatNone     Format = ""
	FormatEmail    Format = "email"
	FormatURI      Format = "uri"
	FormatDate     Format = "date"
	FormatDateTime Format = "date-time"
)

// Option is one choice of a select or multi-select. Value is what is sent;
// Title is what is shown and falls back to Value when the agent gave none.
type Option struct {
	Value       string `json:"value"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
}

// Field is one property of the schema, in the order the agent sent it.
// Strings in it are as the agent sent them: sanitize them before drawing
// (Label and Hints already do).
type Field struct {
	Key         string `json:"key"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Kind        Kind   `json:"kind"`
	Required    bool   `json:"required,omitempty"`

	// String constraints. Lengths count characters (runes), not bytes.
	MinLength *int   `json:"minLength,omitempty"`
	MaxLength *int   `json:"maxLength,omitempty"`
	Pattern   string `json:"pattern,omitempty"`
	// PatternEngine says which engine checks Pattern: "re2" (Go's regexp),
	// "ecmascript" (regexp2 in ECMAScript mode, under a time limit, for
	// lookaround and backreferences), or "" when neither compiles it and
	// values are accepted unchecked (PatternSkipped).
	PatternEngine  string `json:"patternEngine,omitempty"`
	PatternSkipped bool   `json:"patternSkipped,omitempty"`
	Format         Format `json:"format,omitempty"`
	// FormatAnnotation is a format the schema names but elicit does not
	// check, such as "uuid" or "password".
	FormatAnnotation string `json:"formatAnnotation,omitempty"`

	// Number and integer bounds, exact as the agent wrote them. Minimum and
	// Maximum are inclusive; ExclusiveMinimum and ExclusiveMaximum strict.
	Minimum          *json.Number `json:"minimum,omitempty"`
	Maximum          *json.Number `json:"maximum,omitempty"`
	ExclusiveMinimum *json.Number `json:"exclusiveMinimum,omitempty"`
	ExclusiveMaximum *json.Number `json:"exclusiveMaximum,omitempty"`

	// Options of a select or multi-select, and the bounds of a
	// multi-select or list.
	Options  []Option `json:"options,omitempty"`
	MinItems *int     `json:"minItems,omitempty"`
	MaxItems *int     `json:"maxItems,omitempty"`
	// Item, on a list, is the schema each line must meet (its length,
	// format and pattern); UniqueItems refuses a line given twice.
	Item        *Field `json:"item,omitempty"`
	UniqueItems bool   `json:"uniqueItems,omitempty"`

	// Const, on a const field, is the fixed value (string, json.Number or
	// bool); it is always sent.
	Const any `json:"const,omitempty"`

	// Nullable is set when the schema allows null (pydantic's
	// anyOf [T, null], type [T, "null"]): the field is optional here, and
	// when the agent also lists it as required an empty answer is sent as
	// null (SendNull) rather than left out.
	Nullable bool `json:"nullable,omitempty"`
	SendNull bool `json:"sendNull,omitempty"`

	// Default is the typed default (string, json.Number, bool or
	// []string); HasDefault tells a zero default from none.
	Default    any  `json:"default,omitempty"`
	HasDefault bool `json:"hasDefault,omitempty"`

	// Notes are visible remarks about the property, such as a default that
	// was dropped because it broke the property's own constraints.
	Notes []string `json:"notes,omitempty"`

	// Secret is set when the key, title or description asks for a secret
	// (password, token, API key, ...); the form warns that form mode must
	// not carry secrets.
	Secret bool `json:"secret,omitempty"`

	// OtherKey, on a select, is the key of its free-text companion
	// ("X_custom"); OtherValue is the option that means "other", if any.
	OtherKey   string `json:"otherKey,omitempty"`
	OtherValue string `json:"otherValue,omitempty"`
	// OtherOf, on the companion string field, is the select it belongs to;
	// the form shows the two as one question.
	OtherOf string `json:"otherOf,omitempty"`

	re      matcher        // compiled Pattern, nil when none or skipped
	options map[string]int // option value -> index in Options
	min     *bound         // parsed Minimum, and so on
	max     *bound
	xmin    *bound
	xmax    *bound
}

// Label is the name the user sees: the title, else the key, sanitized to one
// line.
func (f *Field) Label() string {
	if f.Title != "" {
		return sanitize.Line(f.Title)
	}
	return sanitize.Line(f.Key)
}

// hasOption reports whether v is one of the field's option values.
func (f *Field) hasOption(v string) bool {
	_, ok := f.options[v]
	return ok
}

// Schema is a parsed restricted schema: the form's title and description and
// its fields in the agent's order.
type Schema struct {
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	Fields      []*Field `json:"fields"`
}

// Field returns the field with the given key, or nil.
func (s *Schema) Field(key string) *Field {
	for _, f := range s.Fields {
		if f.Key == key {
			return f
		}
	}
	return nil
}

// SchemaError says why a schema was refused. Property is the offending
// property's key, or "" when the problem is the schema itself.
type SchemaError struct {
	Property string
	Reason   string
}

// Error returns `property "x": reason`, or just the reason for the schema
// itself. The key is quoted with Go escaping, so it is safe to show.
func (e *SchemaError) Error() string {
	if e.Property == "" {
		return "schema: " + e.Reason
	}
	return fmt.Sprintf("property %q: %s", e.Property, e.Reason)
}

// OptionIndex returns the index in Options of the option whose value is v.
func (f *Field) OptionIndex(v string) (int, bool) {
	i, ok := f.options[v]
	return i, ok
}
