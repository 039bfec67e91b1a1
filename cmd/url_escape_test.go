package cmd

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question/urlcheck"
)

// TestJSONEscapesInvisibles checks that `elicit url --json` never prints a
// bidi control or invisible character raw, and that the JSON still holds
// the URL exactly.
func TestJSONEscapesInvisibles(t *testing.T) {
	in := "https://example.com/\u202egnp.exe?\u200d\u200b=\ufeff"
	var out, errb bytes.Buffer
	runURL(urlOptions{asJSON: true}, []string{in}, nil, &out, &errb)
	for _, r := range out.String() {
		if r == 0x202e || r == 0x200d || r == 0x200b || r == 0xfeff {
			t.Fatalf("raw %U in %q", r, out.String())
		}
	}
	if !strings.Contains(out.String(), `\u202e`) {
		t.Errorf("no \\u202e escape in %s", out.String())
	}
	var r urlcheck.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Input != in {
		t.Errorf("decoded input %q (%v), want %q", r.Input, err, in)
	}
}
