package schema

import (
	"testing"
)

func TestMeansOther(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"other", true}, {"Other", true}, {"Other...", true}, {"Other…", true},
		{"Other (please specify)", true}, {"other: type below", true}, {"__other__", true},
		{"Others", false}, {"Mother", false}, {"another", false}, {"red", false}, {"", false},
	}
	for _, tt := range tests {
		if got := meansOther(tt.in); got != tt.want {
			t.Errorf("meansOther(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestLinkOther(t *testing.T) {
	tests := []struct {
		name              string
		schema            string
		otherKey, otherOf string // expected X.OtherKey and companion.OtherOf
		otherValue        string
	}{
		{"optional select with _custom",
			`{"type":"object","properties":{"q":{"type":"string","enum":["a","b"]},"q_custom":{"type":"string"}}}`,
			"q_custom", "q", ""},
		{"required select with other option",
			`{"type":"object","properties":{"q":{"type":"string","oneOf":[{"const":"a"},{"const":"x","title":"Other..."}]},"q_custom":{"type":"string"}},"required":["q"]}`,
			"q_custom", "q", "x"},
		{"required select, no other option: left as two fields",
			`{"type":"object","properties":{"q":{"type":"string","enum":["a"]},"q_custom":{"type":"string"}},"required":["q"]}`,
			"", "", ""},
		{"_other suffix",
			`{"type":"object","properties":{"q":{"type":"string","enum":["a"]},"q_other":{"type":"string"}}}`,
			"q_other", "q", ""},
		{"companion not a string",
			`{"type":"object","properties":{"q":{"type":"string","enum":["a"]},"q_custom":{"type":"integer"}}}`,
			"", "", ""},
		{"other option, no companion",
			`{"type":"object","properties":{"q":{"type":"string","enum":["a","other"]}}}`,
			"", "", "other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.schema)
			q := s.Field("q")
			if q.OtherKey != tt.otherKey || q.OtherValue != tt.otherValue {
				t.Errorf("OtherKey %q OtherValue %q, want %q %q", q.OtherKey, q.OtherValue, tt.otherKey, tt.otherValue)
			}
			for _, f := range s.Fields[1:] {
				if f.OtherOf != tt.otherOf {
					t.Errorf("%s.OtherOf = %q, want %q", f.Key, f.OtherOf, tt.otherOf)
				}
			}
		})
	}
}

func TestSecret(t *testing.T) {
	tests := []struct {
		key, title, desc string
		want             bool
	}{
		{"password", "", "", true},
		{"db_passwd", "", "", true},
		{"apiKey", "", "", true},
		{"API-KEY", "", "", true},
		{"x", "Access token", "", true},
		{"x", "", "Your OpenAI secret", true},
		{"creds", "Credentials", "", true},
		{"cardNumber", "", "", true},
		{"x", "Credit card", "", true},
		{"max_tokens", "Max tokens", "How many tokens to generate", false},
		{"name", "Name", "Your full name", false},
		{"keyboard", "Keyboard layout", "", false},
	}
	for _, tt := range tests {
		f := &Field{Key: tt.key, Title: tt.title, Description: tt.desc}
		if got := isSecret(f); got != tt.want {
			t.Errorf("isSecret(%q, %q, %q) = %v, want %v", tt.key, tt.title, tt.desc, got, tt.want)
		}
	}
}

func TestSchemaErrorText(t *testing.T) {
	if got := (&SchemaError{"a\x1b", "bad"}).Error(); got != `property "a\x1b": bad` {
		t.Errorf("got %q", got)
	}
	if got := (&SchemaError{"", "bad"}).Error(); got != "schema: bad" {
		t.Errorf("got %q", got)
	}
}

func TestLabelSanitized(t *testing.T) {
	f := &Field{Key: "k", Title: "Na\x1b[2Jme\n2"}
	if got := f.Label(); got != "Name 2" {
		t.Errorf("Label() = %q", got)
	}
	if got := (&Field{Key: "only_key"}).Label(); got != "only_key" {
		t.Errorf("Label() = %q", got)
	}
}
