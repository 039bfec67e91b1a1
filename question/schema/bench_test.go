package schema

import (
	"encoding/json"
	"testing"
)

// benchSchemas are the requested schemas the benchmarks parse: the one
// field of the forms benchmark (/forms N), a realistic six-field form, and
// a 50-field form without patterns (BenchmarkParseSchema50Fields has them,
// and compiling them costs more than parsing).
var benchSchemas = map[string]string{
	"1field": `{"type":"object","properties":{"answer":{"type":"string","title":"Answer","default":"ok"}},"required":["answer"]}`,
	"6fields": `{"type":"object","properties":{` +
		`"name":{"type":"string","title":"Name","minLength":1,"maxLength":80},` +
		`"email":{"type":"string","title":"Email","format":"email"},` +
		`"age":{"type":"integer","title":"Age","minimum":0,"maximum":150,"default":30},` +
		`"role":{"type":"string","title":"Role","oneOf":[{"const":"dev","title":"Developer"},{"const":"ops","title":"Operations"},{"const":"pm","title":"Product"}]},` +
		`"subscribe":{"type":"boolean","title":"Subscribe","default":false},` +
		`"tags":{"type":"array","title":"Tags","items":{"type":"string","enum":["a","b","c"]},"maxItems":2}},` +
		`"required":["name","email"]}`,
	"50plain": plainFields(50),
}

func plainFields(n int) string {
	s := `{"type":"object","properties":{`
	for i := range n {
		if i > 0 {
			s += ","
		}
		switch k := string(rune('a'+i%26)) + string(rune('a'+i/26)); i % 5 {
		case 0:
			s += `"s` + k + `":{"type":"string","title":"Field","minLength":1,"maxLength":40}`
		case 1:
			s += `"n` + k + `":{"type":"integer","minimum":0,"maximum":100,"default":5}`
		case 2:
			s += `"b` + k + `":{"type":"boolean","default":true}`
		case 3:
			s += `"e` + k + `":{"type":"string","oneOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]}`
		case 4:
			s += `"m` + k + `":{"type":"array","items":{"enum":["x","y","z"]},"maxItems":2}`
		}
	}
	return s + `}}`
}

func BenchmarkParseSchema(b *testing.B) {
	for _, name := range []string{"1field", "6fields", "50plain"} {
		raw := []byte(benchSchemas[name])
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := ParseSchema(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFromAnswers fills the form of bench/mcpforms (a string, an
// integer, a boolean and an enum) from an answers file, as `elicit mcp
// call --answers` and `elicit -p --answers` do for every form.
func BenchmarkFromAnswers(b *testing.B) {
	s, err := ParseSchema([]byte(`{"type":"object","properties":{` +
		`"color":{"type":"string","title":"Colour","enum":["red","green","blue"]},` +
		`"count":{"type":"integer","title":"Count","minimum":0,"maximum":100},` +
		`"name":{"type":"string","title":"Name","description":"Who is asking"},` +
		`"ok":{"type":"boolean","title":"Proceed?"}},"required":["name","count","ok","color"]}`))
	if err != nil {
		b.Fatal(err)
	}
	answers := map[string]json.RawMessage{"name": json.RawMessage(`"bench"`), "count": json.RawMessage(`3`), "ok": json.RawMessage(`true`), "color": json.RawMessage(`"green"`)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.FromAnswers(answers); err != nil {
			b.Fatal(err)
		}
	}
}
