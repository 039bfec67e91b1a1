package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// chain is a schema whose property refers through n definitions in a row.
func chain(n int) string {
	var defs []string
	for i := range n {
		defs = append(defs, fmt.Sprintf(`"d%d":{"$ref":"#/$defs/d%d"}`, i, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"string"}`, n))
	return `{"type":"object","properties":{"p":{"$ref":"#/$defs/d0"}},"$defs":{` + strings.Join(defs, ",") + `}}`
}

// fan is a schema whose every level offers two ways to the next, n deep:
// 2^n ways through it on one value.
func fan(n int) string {
	var defs []string
	for i := range n {
		defs = append(defs, fmt.Sprintf(`"d%d":{"anyOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"string"}`, n))
	return `{"type":"object","properties":{"p":{"$ref":"#/$defs/d0"}},"$defs":{` + strings.Join(defs, ",") + `}}`
}

// Issue 34, item 9: a $ref loop on one value is refused before anything
// validates against it (jsonschema-go overflowed its stack on Ctrl+S, a
// fatal error); a recursive type, which goes into the value at each turn,
// is a schema like any other.
func TestCheckRefs(t *testing.T) {
	for _, tc := range []struct {
		name, schema, bad string
	}{
		{"a tree", `{"type":"object","properties":{"name":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#"}}}}`, ""},
		{"a list through $defs", `{"$ref":"#/$defs/node","$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}}}`, ""},
		{"pydantic's enum", `{"type":"object","properties":{"s":{"$ref":"#/definitions/Size"}},"definitions":{"Size":{"enum":["s","m"]}}}`, ""},
		{"an anchor", `{"type":"object","properties":{"s":{"$ref":"#size"}},"$defs":{"x":{"$anchor":"size","type":"string"}}}`, ""},
		{"a resource of its own", `{"$id":"https://x.example/root","properties":{"a":{"$ref":"https://x.example/a"}},"$defs":{"a":{"$id":"https://x.example/a","properties":{"again":{"$ref":"#"}}}}}`, ""},
		{"an escaped pointer", `{"properties":{"p":{"$ref":"#/$defs/a~1b%25"}},"$defs":{"a/b%":{"type":"integer"}}}`, ""},
		{"63 in a row", chain(63), ""},
		{"14 levels of two ways", fan(14), ""},

		{"itself", `{"type":"object","properties":{"p":{"$ref":"#/properties/p"}}}`, "loops"},
		{"the root", `{"$ref":"#"}`, "loops"},
		{"two definitions", `{"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`, "loops"},
		{"through allOf", `{"properties":{"x":{"$ref":"#/$defs/a"}},"$defs":{"a":{"allOf":[{"type":"string"},{"$ref":"#/$defs/a"}]}}}`, "loops"},
		{"through an option", `{"type":"object","$defs":{"L":{"$ref":"#/$defs/L"}},"properties":{"p":{"type":"string","oneOf":[{"const":"a","title":"A","$ref":"#/$defs/L"}]}}}`, "loops"},
		{"through not", `{"properties":{"x":{"not":{"$ref":"#/properties/x"}}}}`, "loops"},
		{"through if", `{"properties":{"x":{"if":{"$ref":"#/properties/x"}}}}`, "loops"},
		{"through dependentSchemas", `{"dependentSchemas":{"a":{"$ref":"#"}}}`, "loops"},
		{"through an anchor", `{"properties":{"x":{"$ref":"#me"}},"$defs":{"m":{"$anchor":"me","anyOf":[{"$ref":"#me"}]}}}`, "loops"},
		{"through a draft 7 anchor", `{"properties":{"x":{"$ref":"#me"}},"definitions":{"m":{"$id":"#me","allOf":[{"$ref":"#me"}]}}}`, "loops"},
		{"through an $id", `{"$id":"https://x.example/root","properties":{"a":{"$ref":"https://x.example/a"}},"$defs":{"a":{"$id":"https://x.example/a","$ref":"#"}}}`, "loops"},
		{"items' options", `{"properties":{"p":{"type":"array","items":{"anyOf":[{"const":"a","$ref":"#/$defs/L"}]}}},"$defs":{"L":{"$ref":"#/$defs/L"}}}`, "loops"},
		{"elsewhere", `{"properties":{"x":{"$ref":"https://evil.example/s.json"}}}`, "outside the schema"},
		{"nowhere", `{"properties":{"x":{"$ref":"#/$defs/missing"}}}`, "nothing there"},
		{"no such anchor", `{"properties":{"x":{"$ref":"#missing"}}}`, "no such anchor"},
		{"dynamic", `{"properties":{"x":{"$dynamicRef":"#meta"}}}`, "$dynamicRef"},
		{"65 in a row", chain(65), "in a row"},
		{"20 levels of two ways", fan(20), "too many branches"},
		{"a number", `{"properties":{"x":{"$ref":5}}}`, "must be a string"},
	} {
		err := CheckRefs([]byte(tc.schema))
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.bad)
		case tc.bad == "":
			// What passes, the validator walks to its end.
			var s jsonschema.Schema
			if err := json.Unmarshal([]byte(tc.schema), &s); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			r, err := s.Resolve(nil)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			_ = r.Validate(map[string]any{"p": "x", "kids": []any{map[string]any{"kids": []any{}}}, "next": map[string]any{"next": map[string]any{}}})
		}
	}
}

// A schema the parser would read is refused all the same when an option
// of it loops: the SDK validates the answer against the whole schema.
func TestParseSchemaRefusesRefLoops(t *testing.T) {
	_, err := ParseSchema([]byte(`{"type":"object","$defs":{"L":{"$ref":"#/$defs/L"}},"properties":{"p":{"type":"string","oneOf":[{"const":"a","title":"A","$ref":"#/$defs/L"}]}}}`))
	if err == nil || !strings.Contains(err.Error(), "loops") {
		t.Errorf("err %v", err)
	}
}
