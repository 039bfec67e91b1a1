package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormKeys: elicit form --keys prints each property's key (what an
// --answers file names, not the title), kind, whether it is required,
// title and values, one a line, tab-separated, asking nothing; the keys
// it prints fill the form.
func TestFormKeys(t *testing.T) {
	dir := t.TempDir()
	schema := filepath.Join(dir, "schema.json")
	os.WriteFile(schema, []byte(`{"type":"object","properties":{
		"branch":{"type":"string","title":"Branch to deploy","oneOf":[{"const":"main","title":"Main branch"},{"const":"dev","title":"dev"}]},
		"email":{"type":"string","format":"email","title":"Your email"},
		"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"title":"Tags"},
		"dry_run":{"type":"boolean"},
		"count":{"type":"integer","title":"How many","minimum":1}
	},"required":["branch","count"]}`), 0o600)
	want := "branch\tselect\trequired\tBranch to deploy\tone of: main (Main branch), dev\n" +
		"email\tstring (email)\toptional\tYour email\t\n" +
		"tags\tmultiselect\toptional\tTags\tany of: a, b\n" +
		"dry_run\tboolean\toptional\t\t\n" +
		"count\tinteger\trequired\tHow many\t\n"
	for _, args := range [][]string{{"form", "--keys", schema}, {"form", schema, "--keys"}} {
		if r := runTree(t, "", args...); r.code != 0 || r.stdout != want || r.stderr != "" {
			t.Errorf("%q: %v\nwant stdout:\n%s", args, r, want)
		}
	}
	b, _ := os.ReadFile(schema)
	if r := runTree(t, string(b), "form", "--keys", "-"); r.code != 0 || r.stdout != want {
		t.Errorf("from stdin: %v", r)
	}
	// The keys it printed are what --answers takes.
	answers := filepath.Join(dir, "a.json")
	os.WriteFile(answers, []byte(`{"branch":"main","count":2,"dry_run":true}`), 0o600)
	if r := runTree(t, "", "form", schema, "--answers", answers); r.code != 0 || !strings.Contains(r.stdout, `"branch":"main"`) {
		t.Errorf("answers by key: %v", r)
	}
	// --keys asks nothing: it goes with no answers; a bad schema is a
	// usage error.
	if r := runTree(t, "", "form", "--keys", schema, "--answers", answers); r.code != exitUsage || !strings.Contains(r.stderr, "--keys") {
		t.Errorf("--keys --answers: %v", r)
	}
	if r := runTree(t, `{"type":"object","properties":{"x":{"type":"object"}}}`, "form", "--keys"); r.code != exitUsage || !strings.Contains(r.stderr, `"x"`) {
		t.Errorf("refused schema: %v", r)
	}
	// The --answers help says where the keys come from.
	if r := runTree(t, "", "form", "--help"); !strings.Contains(strings.Join(strings.Fields(r.stdout), " "), "property names, not titles: elicit form --keys") {
		t.Errorf("form --help does not say how to find the keys:\n%s", r.stdout)
	}
}
