package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// TestRealSchemas runs the schemas real servers and SDKs send (collected in
// testdata/schemas/real, each source in its README) through the parser,
// compares each parse with NN-name.want.json, and fills each accepted one
// from answers to check the typed content an agent would receive: exact
// numbers, null for a required nullable field, the const sent as is.
func TestRealSchemas(t *testing.T) {
	dir := filepath.Join(corpus, "real")
	tests := []struct {
		file    string
		answers string // JSON object; "" for none
		content string // the content as JSON, or "refused: reason"
	}{
		{"01-conformance-simple-response", `{"response":"yes"}`, `{"response":"yes"}`},
		{"02-conformance-sep1034-defaults", ``, `{"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}`},
		{"03-conformance-sep1330-enums", `{"untitledMulti":["option2"],"titledSingle":"value2"}`, `{"titledSingle":"value2","untitledMulti":["option2"]}`},
		{"04-everything-trigger-elicitation", `{"name":"Ada","integer":"1e2","number":".5"}`,
			`{"firstLine":"It was a dark and stormy night.","integer":100,"legacyTitledEnum":"pet-1","name":"Ada","number":0.5,"titledMultipleSelectEnum":["fish-1"],"titledSingleSelectEnum":"hero-1","untitledMultipleSelectEnum":["Guitar"],"untitledSingleSelectEnum":"Monica"}`},
		{"05-everything-elicitation-async", `{"name":"Ada","favoriteColor":"Blue"}`, `{"favoriteColor":"Blue","name":"Ada"}`},
		{"06-everything-research-clarify", `{"interpretation":"snake"}`, `{"interpretation":"snake"}`},
		{"07-inspector-db-connection", `{"port":"5432"}`, `{"port":"5432"}`},
		{"08-inspector-ssl-mode", `{"sslMode":"require"}`, `{"sslMode":"require"}`},
		{"09-inspector-deploy-confirm", `{"confirm":true}`, `{"confirm":true}`},
		{"10-inspector-many-fields", `{"host":"db"}`, `{"host":"db"}`},
		{"11-inspector-ref-defs", `{"name":"x"}`, `{"name":"x"}`},
		{"12-inspector-anyof-null", ``, `{}`},
		{"13-pydantic-alternative-date", `{"accept_alternative":"yes"}`, `{"accept_alternative":true,"date":"2025-12-26"}`},
		{"14-pydantic-optional-fields", `{"required_name":"Ada","optional_age":"41"}`, `{"optional_age":41,"required_name":"Ada","subscribe":false}`},
		{"15-pydantic-enum-ref-defs", `{"size":"medium"}`, `{"size":"medium"}`},
		{"16-pydantic-literal-and-list-literal", `{"size":"m","extras":["b"]}`, `{"extras":["b"],"size":"m"}`},
		{"17-pydantic-list-str", `{"tags":"red\ngreen\n"}`, `{"tags":["red","green"]}`},
		{"18-pydantic-single-literal-const", `{"confirm":false}`, `{"confirm":false,"kind":"booking"}`},
		{"19-pydantic-exclusive-bounds-pattern", `{"count":1,"ratio":0,"code":"ABC-1234"}`, `{"code":"ABC-1234","count":1,"ratio":0}`},
		{"20-pydantic-secretstr", `{"api_token":"t"}`, `{"api_token":"t"}`},
		{"21-zod4-int-positive", `{"count":"9007199254740991","price":1000}`, `{"count":9007199254740991,"price":1000}`},
		{"22-zod4-string-formats", `{"email":"a@example.com","day":"2024-02-29","when":"2026-05-01T09:30:00Z","id":"123e4567-e89b-12d3-a456-426614174000"}`,
			`{"day":"2024-02-29","email":"a@example.com","id":"123e4567-e89b-12d3-a456-426614174000","when":"2026-05-01T09:30:00Z"}`},
		{"23-zod4-enum-literal-default", ``, `{"env":"staging","mode":"deploy","notify":true}`},
		{"24-zod4-array-of-strings", `{"reviewers":["octocat","hubot"]}`, `{"reviewers":["octocat","hubot"]}`},
		{"25-zod4-nullable-optional", ``, `{"nickname":null}`},
		{"26-zod4-regex-lookahead", `{"password":"Correct1horse"}`, `{"password":"Correct1horse"}`},
		{"27-fastmcp-scalar-str", `{"value":"Ada"}`, `{"value":"Ada"}`},
		{"28-fastmcp-literal-choice", `{"value":"high"}`, `{"value":"high"}`},
		{"29-fastmcp-task-details-enum-ref", `{"title":"Ship it"}`, `{"description":"","priority":"medium","title":"Ship it"}`},
		{"30-fastmcp-nullable-type-list", ``, `{"age":null}`},
		{"31-pydantic-nested-model-refused", ``, `refused: property "address": nested objects are not supported`},
		{"32-pydantic-union-refused", ``, `refused: property "ident": keyword "anyOf" is not supported`},
		{"33-pydantic-list-int-refused", ``, `refused: property "scores": array items must be strings`},
		{"34-zod4-nested-object-refused", ``, `refused: property "owner": nested objects are not supported`},
		{"35-zod4-union-refused", ``, `refused: property "id": type must be one type, optionally with "null" (a list of types is not supported)`},
		{"36-zod4-big-int-default", ``, `{"seq":9007199254740991}`},
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	n := 0
	for _, f := range files {
		if !strings.HasSuffix(f, ".want.json") {
			n++
		}
	}
	if n != len(tests) {
		t.Fatalf("%d schemas in %s, %d in the table", n, dir, len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, tt.file+".json"))
			if err != nil {
				t.Fatal(err)
			}
			s, err := ParseSchema(raw)
			if want, refused := strings.CutPrefix(tt.content, "refused: "); refused {
				if err == nil || err.Error() != want {
					t.Fatalf("error %v, want %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseSchema: %v", err)
			}
			hints := map[string][]string{}
			for _, f := range s.Fields {
				if h := f.Hints(); len(h) > 0 {
					hints[f.Key] = h
				}
			}
			dump, _ := json.MarshalIndent(struct {
				*Schema
				Hints map[string][]string `json:"hints,omitempty"`
			}{s, hints}, "", "  ")
			testkit.Golden(t, filepath.Join(dir, tt.file+".want.json"), append(dump, '\n'))
			var answers map[string]json.RawMessage
			if tt.answers != "" {
				if err := json.Unmarshal([]byte(tt.answers), &answers); err != nil {
					t.Fatal(err)
				}
			}
			content, err := s.FromAnswers(answers)
			if err != nil {
				t.Fatalf("FromAnswers: %v", err)
			}
			if err := s.Check(content); err != nil {
				t.Fatalf("Check: %v", err)
			}
			got, _ := json.Marshal(content)
			if string(got) != tt.content {
				t.Fatalf("content %s\nwant    %s", got, tt.content)
			}
		})
	}
}
