package fullscreen

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"charm.land/glamour/v2"
)

// updateGolden rewrites the golden files (ELICIT_UPDATE_CODE_GOLDEN=1; an
// environment variable, as the package's tests pass their flags on to
// the agent they start).
var updateGolden = os.Getenv("ELICIT_UPDATE_CODE_GOLDEN") == "1"

// codeSample is agent markdown with code blocks in many languages, one
// with no language (chroma guesses) and one it does not know.
const codeSample = "Some **code**:\n\n```go\npackage main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hi\", 42) }\n```\n\n" +
	"```python\ndef f(x):\n    # a comment\n    return x * 2\n```\n\n" +
	"```json\n{\"a\": [1, 2.5, true, null], \"b\": \"s\"}\n```\n\n" +
	"```bash\nfor f in *.go; do echo \"$f\"; done\n```\n\n" +
	"```yaml\nkey: value\nlist:\n  - 1\n```\n\n" +
	"```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n```\n\n" +
	"```rust\nfn main() { let v: Vec<u8> = vec![1]; }\n```\n\n" +
	"```\n#!/bin/sh\necho no language\n```\n\n" +
	"```nosuchlang\nplain text here\n```\n"

// TestCodeBlocksRenderAsUpstream pins how code blocks are coloured. The
// golden files were written with upstream chroma (GOWORK=off, no patch);
// the checkout builds on third_party/chroma, whose lexers and styles load
// on first use (PATCH.md): both must draw the same bytes. CI runs the test
// both ways. The renderer is the one markdown.render builds, with chroma's
// true-colour formatter: its 256-colour one picks between equally near
// colours in map order, so upstream itself draws some tokens differently
// from run to run (a comment in the light style is 241 or 242).
func TestCodeBlocksRenderAsUpstream(t *testing.T) {
	for _, style := range []string{"dark", "light", "notty"} {
		r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(78),
			glamour.WithPreservedNewLines(), glamour.WithChromaFormatter("terminal16m"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Render(codeSample)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, filepath.Join("testdata", "codeblocks-"+style+".golden"), got)
	}
}

// checkGolden compares got, one quoted line per line, with a golden file.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	var b strings.Builder
	for _, l := range strings.Split(got, "\n") {
		b.WriteString(strconv.Quote(l))
		b.WriteByte('\n')
	}
	if updateGolden {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != b.String() {
		t.Errorf("%s: rendered code differs from the golden file:\n%s", path, b.String())
	}
}
