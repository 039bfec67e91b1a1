package mcpconn

import (
	"encoding/json"
	"testing"
)

// TestFormKeyIsJSONMarshal checks that canonical writes what json.Marshal
// wrote for formKey before it (the key both sides of a form must agree on),
// for the values JSON decoders make, including strings json.Marshal escapes.
func TestFormKeyIsJSONMarshal(t *testing.T) {
	for _, raw := range []string{
		`{"type":"object","properties":{"b":{"type":"string","enum":["x","y"]},"a":{"type":"integer","minimum":-1.5e3,"maximum":1e21}},"required":["a"]}`,
		`{"title":"<b>&\"q\"\\ \u2028 é \u0001","default":null,"x":[true,false,0.1,1e-7,[],{}]}`,
		`{"properties":{}}`, `[]`, `"s"`, `3`, `null`,
		`[0, -0.0, 1e-6, 9.99e-7, 1e-9, 123456789012345678901234, 1e20, 1.5e300, -2.5e-300, 0.000001234]`,
	} {
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := formKey("m", v); got != "form\x00m\x00"+string(want) {
			t.Errorf("formKey(%s) = %q, want json.Marshal's %q", raw, got, want)
		}
	}
}

func BenchmarkFormKey(b *testing.B) {
	var v any
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"name":{"type":"string","title":"Name","description":"Who is asking"},"count":{"type":"integer","title":"Count","minimum":0,"maximum":100},"ok":{"type":"boolean","title":"Proceed?"},"color":{"type":"string","title":"Colour","enum":["red","green","blue"]}},"required":["name","count","ok","color"]}`), &v)
	b.ReportAllocs()
	for b.Loop() {
		formKey("Form 1 of 1000", v)
	}
}
