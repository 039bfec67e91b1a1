package schema

import (
	"reflect"
	"testing"
)

const inputSchema = `{"type":"object","properties":{
	"name":{"type":"string","minLength":2,"maxLength":5},
	"email":{"type":"string","format":"email"},
	"strong":{"type":"string","pattern":"^(?=.*[A-Z]).{8,}$"},
	"age":{"type":"integer","minimum":0,"maximum":150},
	"score":{"type":"number","maximum":100},
	"ok":{"type":"boolean"},
	"color":{"type":"string","oneOf":[{"const":"#f00","title":"Red"},{"const":"#00f","title":"Blue"}]},
	"tags":{"type":"array","items":{"enum":["x","y","z"]},"minItems":1,"maxItems":2}
},"required":["name","age"]}`

func TestParseInput(t *testing.T) {
	s := mustParse(t, inputSchema)
	tests := []struct {
		key, text string
		want      any
		err       string
	}{
		{"name", "Jo", "Jo", ""},
		{"name", "", nil, "required"},
		{"name", "J", nil, "shorter than 2 characters"},
		{"name", "Zoë Z", "Zoë Z", ""},
		{"name", "Johnny", nil, "longer than 5 characters"},
		{"email", "", nil, ""},
		{"email", "a@b.co", "a@b.co", ""},
		{"email", "nope", nil, "not an email address"},
		{"strong", "weak", "weak", ""}, // lookahead: RE2 cannot, check skipped
		{"age", "30", int64(30), ""},
		{"age", " +30 ", int64(30), ""},
		{"age", "30.0", int64(30), ""},
		{"age", "1.5", nil, "not a whole number"},
		{"age", "151", nil, "above maximum 150"},
		{"age", "-1", nil, "below minimum 0"},
		{"age", "abc", nil, "not a number"},
		{"age", "0x10", nil, "not a number"},
		{"score", "95.5", 95.5, ""},
		{"score", "1e2", 100.0, ""},
		{"score", "Inf", nil, "not a number"},
		{"score", "NaN", nil, "not a number"},
		{"score", "100.5", nil, "above maximum 100"},
		{"score", "", nil, ""},
		{"ok", "yes", true, ""},
		{"ok", "N", false, ""},
		{"ok", "maybe", nil, "not yes or no"},
		{"color", "#f00", "#f00", ""},
		{"color", "blue", "#00f", ""},
		{"color", "green", nil, `"green" is not one of the options`},
		{"tags", "x, z", []string{"x", "z"}, ""},
		{"tags", "x,y,z", nil, "pick at most 2"},
		{"tags", "x,x", nil, `"x" picked twice`},
		{"tags", "w", nil, `"w" is not one of the options`},
	}
	for _, tt := range tests {
		t.Run(tt.key+"/"+tt.text, func(t *testing.T) {
			got, err := s.Field(tt.key).ParseInput(tt.text)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.err {
				t.Fatalf("error %q, want %q", gotErr, tt.err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestOptionForAmbiguous(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{"c":{"type":"string","oneOf":[{"const":"a","title":"Same"},{"const":"b","title":"same"}]}}}`)
	if _, err := s.Field("c").ParseInput("SAME"); err == nil {
		t.Fatal("ambiguous title accepted")
	}
	if v, err := s.Field("c").ParseInput("b"); err != nil || v != "b" {
		t.Fatalf("exact value: %v, %v", v, err)
	}
}

func mustParse(t testing.TB, schema string) *Schema {
	t.Helper()
	s, err := ParseSchema([]byte(schema))
	if err != nil {
		t.Fatalf("ParseSchema: %v", err)
	}
	return s
}
