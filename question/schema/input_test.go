package schema

import (
	"encoding/json"
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
	"tags":{"type":"array","items":{"enum":["x","y","z"]},"minItems":1,"maxItems":2},
	"big":{"type":"integer"},
	"pos":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1},
	"list":{"type":"array","items":{"type":"string","maxLength":5},"uniqueItems":true,"maxItems":3},
	"fixed":{"type":"string","const":"booking"}
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

		{"age", "30", json.Number("30"), ""},
		{"age", " +30 ", json.Number("30"), ""},
		{"age", "30.0", json.Number("30"), ""},
		{"age", "1.5", nil, "not a whole number"},
		{"age", "151", nil, "above maximum 150"},
		{"age", "-1", nil, "below minimum 0"},
		{"age", "abc", nil, "not a number"},
		{"age", "0x10", nil, "not a number"},
		{"score", "95.5", json.Number("95.5"), ""},
		{"score", "1e2", json.Number("100"), ""},
		{"score", "8e-3", json.Number("0.008"), ""},
		{"score", ".5", json.Number("0.5"), ""},
		{"score", "-0", json.Number("0"), ""},
		{"score", "1e400", nil, "too large or too small to send"},
		{"age", "12345678901234567890", nil, "above maximum 150"},
		{"big", "12345678901234567890", json.Number("12345678901234567890"), ""},
		{"big", "9007199254740993", json.Number("9007199254740993"), ""},
		{"big", "1e3", json.Number("1000"), ""},
		{"big", "1_000", nil, "not a number"},
		{"pos", "0", nil, "must be above 0"},
		{"pos", "0.001", json.Number("0.001"), ""},
		{"pos", "1", nil, "must be below 1"},
		{"list", "a\n\n b \r\nc\n", []string{"a", " b ", "c"}, ""},
		{"list", "a\na", nil, `"a" given twice`},
		{"list", "abcdef", nil, "line 1: longer than 5 characters"},
		{"fixed", "anything", "booking", ""},
		{"strong", "Weakling", "Weakling", ""},
		{"strong", "weakling", nil, "does not match the required format"},
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
		{"tags", "x,x", nil, `"x" given twice`},
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
