package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

const corpus = "../../testdata/schemas"

// TestCorpusValid parses every valid schema and compares a JSON dump of the
// result with NAME.want.json next to it.
func TestCorpusValid(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "valid", "*.json"))
	n := 0
	for _, path := range files {
		if strings.HasSuffix(path, ".want.json") {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := ParseSchema(raw)
			if err != nil {
				t.Fatalf("ParseSchema: %v", err)
			}
			hints := map[string][]string{}
			for _, f := range s.Fields {
				if h := f.Hints(); len(h) > 0 {
					hints[f.Key] = h
				}
			}
			got, err := json.MarshalIndent(struct {
				*Schema
				Hints map[string][]string `json:"hints,omitempty"`
			}{s, hints}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			want := strings.TrimSuffix(path, ".json") + ".want.json"
			testkit.Golden(t, want, got)
			checkDefaults(t, s)
		})
	}
	if n < 20 {
		t.Fatalf("only %d valid schemas in the corpus", n)
	}
}

// TestCorpusInvalid parses every invalid schema and compares the error text
// with NAME.err.txt.
func TestCorpusInvalid(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "invalid", "*.json"))
	if len(files) < 20 {
		t.Fatalf("only %d invalid schemas in the corpus", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := ParseSchema(raw)
			if err == nil {
				t.Fatalf("accepted: %d fields", len(s.Fields))
			}
			if _, ok := err.(*SchemaError); !ok {
				t.Fatalf("error is %T, want *SchemaError", err)
			}
			testkit.Golden(t, strings.TrimSuffix(path, ".json")+".err.txt", []byte(err.Error()+"\n"))
		})
	}
}

// checkDefaults asserts that an accepted schema's defaults pass its own
// checks, and that FromAnswers with no answers fails only on required
// fields without a default.
func checkDefaults(t *testing.T, s *Schema) {
	t.Helper()
	for _, f := range s.Fields {
		if f.HasDefault {
			if err := f.Validate(f.Default); err != nil {
				t.Errorf("%s: default %v fails its own check: %v", f.Key, f.Default, err)
			}
		}
	}
	content, err := s.FromAnswers(nil)
	if err != nil {
		ce, ok := err.(*ContentError)
		if !ok {
			t.Fatalf("FromAnswers error %T", err)
		}
		for _, fe := range ce.Fields {
			if f := s.Field(fe.Key); f == nil || !f.Required || f.HasDefault {
				t.Errorf("FromAnswers(nil): unexpected error for %q: %s", fe.Key, fe.Reason)
			}
		}
		return
	}
	if err := s.Check(content); err != nil {
		t.Errorf("defaults-only content fails Check: %v", err)
	}
}
