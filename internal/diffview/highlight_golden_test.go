package diffview

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/theme"
)

// updateGolden rewrites the golden files (ELICIT_UPDATE_CODE_GOLDEN=1; an
// environment variable, as the package's tests pass their flags on to
// the agent they start).
var updateGolden = os.Getenv("ELICIT_UPDATE_CODE_GOLDEN") == "1"

// TestSyntaxColourAsUpstream pins the syntax colour of diffs for several
// file types. The golden files were written with upstream chroma
// (GOWORK=off); the checkout builds on third_party/chroma, which loads
// lexers and styles on first use (PATCH.md): both must draw the same
// bytes. CI runs the test both ways.
func TestSyntaxColourAsUpstream(t *testing.T) {
	files := map[string][2]string{
		"main.go":     {"package main\n\nfunc main() {\n\tprintln(1)\n}\n", "package main\n\n// Main says hi.\nfunc main() {\n\tprintln(\"hi\", 2)\n}\n"},
		"app.py":      {"def f():\n    return 1\n", "def f():\n    # two\n    return 2\n"},
		"data.json":   {"{\"a\": 1}\n", "{\"a\": 2, \"b\": [true]}\n"},
		"README.md":   {"# Title\n\ntext\n", "# Title\n\n*more* text\n"},
		"Makefile":    {"all:\n\tgo build\n", "all:\n\tgo build ./...\n"},
		"notes.zzzzz": {"a\n", "b\n"},
	}
	for _, dark := range []bool{true, false} {
		var b strings.Builder
		for _, name := range []string{"main.go", "app.py", "data.json", "README.md", "Makefile", "notes.zzzzz"} {
			f := files[name]
			lines, _ := Render(Diff{Path: name, Old: f[0], New: f[1]}, 80, 0, false, theme.New(dark, false))
			for _, l := range lines {
				b.WriteString(strconv.Quote(l))
				b.WriteByte('\n')
			}
		}
		path := filepath.Join("testdata", "highlight-light.golden")
		if dark {
			path = filepath.Join("testdata", "highlight-dark.golden")
		}
		if updateGolden {
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(want) != b.String() {
			t.Errorf("%s: the diff's colour differs from the golden file:\n%s", path, b.String())
		}
	}
}
