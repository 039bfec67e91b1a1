package schema

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// dump is what a parse gives, in a form two parses can be compared by:
// the schema's JSON with every field's hints, or the error's text.
func dump(s *Schema, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	hints := map[string][]string{}
	for _, f := range s.Fields {
		hints[f.Key] = append(f.Hints(), f.PatternText())
	}
	b, jerr := json.Marshal(struct {
		*Schema
		Hints map[string][]string
	}{s, hints})
	if jerr != nil {
		return "unmarshalable: " + jerr.Error()
	}
	return string(b)
}

// cacheInputs are the corpus's schemas (valid, invalid and real servers'),
// the hostile one and a few that are not schemas at all.
func cacheInputs(t *testing.T) [][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "*.json"))
	var out [][]byte
	for _, path := range files {
		if strings.HasSuffix(path, ".want.json") {
			continue
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, raw)
	}
	if len(out) < 40 {
		t.Fatalf("only %d schemas in the corpus", len(out))
	}
	h, _ := json.Marshal(hostile)
	out = append(out,
		[]byte(`{"type":"object","title":`+string(h)+`,"properties":{"s":{"type":"string","pattern":`+string(h)+`,"default":`+string(h)+`}}}`),
		[]byte(`{"type":"object","properties":{"a":{"type":"object"}}}`),
		[]byte(`[1,2`), []byte(``), []byte(`null`), []byte(strings.Repeat("[", 20000)))
	return out
}

// TestCacheAnswersAsParseSchema: every input, parsed through a cache
// (first, again from the cache, and after others pushed it out of a small
// one), gives what ParseSchema gives, refusals included.
func TestCacheAnswersAsParseSchema(t *testing.T) {
	inputs := cacheInputs(t)
	small, big := NewCache(3), NewCache(len(inputs))
	for round := range 3 {
		for i, raw := range inputs {
			want := dump(ParseSchema(raw))
			for _, c := range []*Cache{small, big} {
				if got := dump(c.Parse(raw)); got != want {
					t.Fatalf("round %d, input %d (%.60q): the cache gave\n%s\nParseSchema gives\n%s", round, i, raw, got, want)
				}
			}
		}
	}
	if n := small.Len(); n != 3 {
		t.Fatalf("the small cache holds %d entries, want 3", n)
	}
}

// TestCacheHits: the same bytes give the same parsed schema (parsed once);
// other bytes (a schema changed between two calls, even by a space) give
// their own; a schema over MaxCachedBytes is parsed each time and never
// kept.
func TestCacheHits(t *testing.T) {
	c := NewCache(DefaultCacheEntries)
	a := []byte(`{"type":"object","properties":{"n":{"type":"integer","minimum":0}}}`)
	s1, err := c.Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := c.Parse(bytes.Clone(a))
	if s1 != s2 {
		t.Fatal("the same bytes were parsed twice")
	}
	changed := []byte(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`)
	s3, _ := c.Parse(changed)
	if s3 == s1 || s3.Fields[0].Minimum.String() != "1" {
		t.Fatalf("a changed schema came from the cache: minimum %v", s3.Fields[0].Minimum)
	}
	spaced := append(bytes.Clone(a), ' ')
	if s4, _ := c.Parse(spaced); s4 == s1 {
		t.Fatal("a schema with a space more came from the cache")
	}
	if s5, _ := c.Parse(a); s5 != s1 {
		t.Fatal("the first schema is no longer cached")
	}
	n := c.Len()
	huge := []byte(`{"type":"object","description":"` + strings.Repeat("x", MaxCachedBytes) + `","properties":{}}`)
	h1, err := c.Parse(huge)
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := c.Parse(huge)
	if h1 == h2 || c.Len() != n {
		t.Fatalf("a schema over MaxCachedBytes was kept (%d entries, %d before)", c.Len(), n)
	}
}

// TestCacheCollision: an entry whose hash matches but whose bytes do not
// is never taken for a hit.
func TestCacheCollision(t *testing.T) {
	c := NewCache(DefaultCacheEntries)
	a := []byte(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	b := []byte(`{"type":"object","properties":{"b":{"type":"boolean"}}}`)
	sa, _ := ParseSchema(a)
	c.entries.Add(maphash.Bytes(c.seed, b), &cached{raw: a, s: sa}) // b's hash, a's parse
	sb, err := c.Parse(b)
	if err != nil || sb == sa || sb.Fields[0].Key != "b" {
		t.Fatalf("b gave a's schema: %v %v", sb, err)
	}
}

// TestCacheConcurrent: goroutines parsing the same and different schemas
// at once, and reading what they got (run with -race).
func TestCacheConcurrent(t *testing.T) {
	c := NewCache(2)
	inputs := [][]byte{
		[]byte(`{"type":"object","properties":{"a":{"type":"string","pattern":"^a+$"}},"required":["a"]}`),
		[]byte(`{"type":"object","properties":{"b":{"type":"string","pattern":"^(?=b)b+$"}}}`),
		[]byte(`{"type":"object","properties":{"c":{"type":"integer","maximum":3}}}`),
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				raw := inputs[(g+i)%len(inputs)]
				s, err := c.Parse(raw)
				if err != nil {
					t.Error(err)
					return
				}
				f := s.Fields[0]
				var v any = "aaa"
				if f.Kind == KindInteger {
					v = json.Number("2")
				} else if f.Key == "b" {
					v = "bbb"
				}
				if err := f.Validate(v); err != nil {
					t.Errorf("%s: %v", f.Key, err)
					return
				}
			}
		})
	}
	wg.Wait()
}
