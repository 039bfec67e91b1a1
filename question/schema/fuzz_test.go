package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// FuzzParseSchema checks that no input panics, and that every accepted
// schema's defaults pass its own checks and survive FromAnswers and Check.
func FuzzParseSchema(f *testing.F) {
	for _, dir := range []string{"valid", "invalid"} {
		files, _ := filepath.Glob(filepath.Join(corpus, dir, "*.json"))
		for _, p := range files {
			if strings.HasSuffix(p, ".want.json") || strings.Contains(p, "too-many") {
				continue
			}
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(inputSchema))
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := ParseSchema(raw)
		if err != nil {
			if _, ok := err.(*SchemaError); !ok {
				t.Fatalf("error %T is not a *SchemaError", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, fl := range s.Fields {
			if seen[fl.Key] {
				t.Fatalf("duplicate key %q", fl.Key)
			}
			seen[fl.Key] = true
			if fl.HasDefault {
				if err := fl.Validate(fl.Default); err != nil {
					t.Fatalf("%q: default %#v fails its own check: %v", fl.Key, fl.Default, err)
				}
				// The default round-trips through JSON as an answer.
				b, err := json.Marshal(fl.Default)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := fl.DecodeJSON(b); err != nil {
					t.Fatalf("%q: default %s does not decode back: %v", fl.Key, b, err)
				}
			}
			_ = fl.Hints()
			_ = fl.Label()
			_, _ = fl.ParseInput(fmt.Sprint(fl.Default))
		}
		content, err := s.FromAnswers(nil)
		if err == nil {
			if err := s.Check(content); err != nil {
				t.Fatalf("defaults-only content fails Check: %v", err)
			}
		}
	})
}

func BenchmarkParseSchema50Fields(b *testing.B) {
	raw := testkit.SchemaWithFields(50)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := ParseSchema(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseSchema5000Options(b *testing.B) {
	opts := make([]map[string]string, 5000)
	for i := range opts {
		opts[i] = map[string]string{"const": fmt.Sprintf("v%d", i), "title": fmt.Sprintf("Option %d", i)}
	}
	raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
		"pick": map[string]any{"type": "string", "oneOf": opts}}})
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := ParseSchema(raw); err != nil {
			b.Fatal(err)
		}
	}
}
