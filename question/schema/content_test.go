package schema

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestCheck(t *testing.T) {
	s := mustParse(t, inputSchema)
	tests := []struct {
		name    string
		content map[string]any
		want    string
	}{
		{"minimal", map[string]any{"name": "Jo", "age": json.Number("3")}, ""},
		{"json-decoded types", map[string]any{"name": "Jo", "age": 3.0, "tags": []any{"x"}, "score": 1}, ""},
		{"everything wrong at once",
			map[string]any{"age": 1.5, "email": "x", "ok": "yes", "tags": []string{}, "extra": 1},
			`"name": required; "email": not an email address; "age": not a whole number; "ok": not true or false; "tags": pick at least 1; "extra": not in the schema`},
		{"null value", map[string]any{"name": "Jo", "age": json.Number("1"), "score": nil}, `"score": null (leave the key out instead)`},
		{"wrong types", map[string]any{"name": 5, "age": "5", "color": 1, "tags": []any{1}},
			`"name": not a string; "age": not a number; "color": not a string; "tags": not a list of strings`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Check(tt.content)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestFromAnswers(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{
		"name":{"type":"string","default":"John Doe"},
		"age":{"type":"integer","minimum":0,"default":30},
		"score":{"type":"number","default":95.5},
		"status":{"type":"string","enum":["active","inactive","pending"],"default":"active"},
		"verified":{"type":"boolean","default":true},
		"tags":{"type":"array","items":{"enum":["a","b"]},"default":["a"]},
		"note":{"type":"string"},
		"must":{"type":"string"}
	},"required":["must"]}`)
	tests := []struct {
		name    string
		answers string
		want    map[string]any
		err     string
	}{
		{"defaults and one answer", `{"must":"x"}`, map[string]any{
			"name": "John Doe", "age": json.Number("30"), "score": json.Number("95.5"), "status": "active",
			"verified": true, "tags": []string{"a"}, "must": "x"}, ""},
		{"answers override, quoted numbers, unknown keys ignored",
			`{"must":"x","age":"41","score":1,"verified":false,"tags":["b","a"],"note":"hi","other_form_key":3,"name":null}`,
			map[string]any{"name": "John Doe", "age": json.Number("41"), "score": json.Number("1"), "status": "active",
				"verified": false, "tags": []string{"b", "a"}, "note": "hi", "must": "x"}, ""},
		{"missing required", `{}`, nil, `"must": required, and neither the answers nor a default give a value`},
		{"bad answers all listed", `{"must":"x","age":1.5,"status":"gone","tags":"c"}`, nil,
			`"age": not a whole number; "status": "gone" is not one of the options; "tags": "c" is not one of the options`},
		{"integer beyond int64 stays exact", `{"must":"x","age":12345678901234567890}`, map[string]any{
			"name": "John Doe", "age": json.Number("12345678901234567890"), "score": json.Number("95.5"), "status": "active",
			"verified": true, "tags": []string{"a"}, "must": "x"}, ""},
		{"number spelt as JSON", `{"must":"x","score":8e3,"age":"3e1"}`, map[string]any{
			"name": "John Doe", "age": json.Number("30"), "score": json.Number("8000"), "status": "active",
			"verified": true, "tags": []string{"a"}, "must": "x"}, ""},
		{"large integer stays exact", `{"must":"x","age":9007199254740993}`, map[string]any{
			"name": "John Doe", "age": json.Number("9007199254740993"), "score": json.Number("95.5"), "status": "active",
			"verified": true, "tags": []string{"a"}, "must": "x"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var answers map[string]json.RawMessage
			if err := json.Unmarshal([]byte(tt.answers), &answers); err != nil {
				t.Fatal(err)
			}
			got, err := s.FromAnswers(answers)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.err {
				t.Fatalf("error %q, want %q", gotErr, tt.err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v\nwant %#v", got, tt.want)
			}
			if got != nil {
				if err := s.Check(got); err != nil {
					t.Errorf("FromAnswers content fails Check: %v", err)
				}
				b, _ := json.Marshal(got)
				if !isJSONInteger(b, "age") {
					t.Errorf("age not a JSON integer: %s", b)
				}
			}
		})
	}
	// The default slice must not be shared with the content.
	c, _ := s.FromAnswers(map[string]json.RawMessage{"must": json.RawMessage(`"x"`)})
	c["tags"].([]string)[0] = "b"
	if s.Field("tags").Default.([]string)[0] != "a" {
		t.Fatal("FromAnswers shares the default slice")
	}
}

// isJSONInteger reports whether the JSON object b has key with a value made
// of digits only: an integer, not 30.0 or 3e1.
func isJSONInteger(b []byte, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || len(m[key]) == 0 {
		return false
	}
	for _, c := range m[key] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
