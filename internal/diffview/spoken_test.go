package diffview

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

func TestSpoken(t *testing.T) {
	got := Spoken(Diff{Path: "config.sh", Old: "a\nb\nc\n", New: "a\nB\nc\n\x00\n"}, 0)
	want := []string{
		"config.sh: 2 lines added, 1 removed",
		"at line 1:",
		"unchanged: a",
		"removed: b",
		"added: B",
		"unchanged: c",
		"added: ␀",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = Spoken(Diff{Path: "new.sh", New: "echo hello\n\n"}, 0)
	if got[0] != "new.sh: new file, 2 lines" || got[2] != "added: echo hello" || got[3] != "added: (empty line)" {
		t.Fatalf("%q", got)
	}
	got = Spoken(Diff{Path: "big", New: file(100, "\n")}, 10)
	if len(got) != 10 || got[9] != "(93 more lines of the diff not read out)" {
		t.Fatalf("%d lines, last %q", len(got), got[len(got)-1])
	}
}

// FuzzSpoken: a permission diff read out hides nothing: within each hunk
// the lines read as unchanged or added are the new file's lines from the
// hunk's line on, in order, and controls are markers, never raw.
func FuzzSpoken(f *testing.F) {
	f.Add("a\nb\n", "a\nB\x00\n")
	f.Add("", "rm -rf ~/\recho safe\n")
	f.Add("x\r\ny\r\n", "x\r\n\x1b]0;t\a\r\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		out := Spoken(Diff{Path: "p", Old: old, New: new}, 0)
		for _, l := range out {
			if !utf8.ValidString(l) {
				t.Fatalf("invalid UTF-8: %q", l)
			}
			for _, r := range l {
				if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
					t.Fatalf("control %U read out raw in %q", r, l)
				}
			}
		}
		if strings.Contains(new, "<U+") || strings.ContainsFunc(new, func(r rune) bool { return r >= 0x2400 && r <= 0x2421 }) || !utf8.ValidString(new) {
			return // markers of its own: Unshown cannot tell them apart
		}
		lines := strings.SplitAfter(new, "\n")
		at := -1
		for _, l := range out[1:] {
			var n int
			if _, err := fmt.Sscanf(l, "at line %d:", &n); err == nil && strings.HasPrefix(l, "at line ") {
				at = max(n, 1) - 1
				continue
			}
			word, text, _ := strings.Cut(l, ": ")
			if word == "removed" {
				continue
			}
			if at < 0 || at >= len(lines) {
				t.Fatalf("%q read out past the new file's end:\n%s", l, strings.Join(out, "\n"))
			}
			want := lines[at]
			if w, ok := strings.CutSuffix(want, "\n"); ok {
				want = strings.TrimSuffix(w, "\r") // a line ending; a lone CR is a marker
			}
			want = strings.ReplaceAll(want, "\t", "    ")
			if got := sanitize.Unshown(text); got != want && !(text == "(empty line)" && strings.TrimSpace(want) == "") {
				t.Fatalf("line %d read out as %q, is %q:\n%s", at+1, text, want, strings.Join(out, "\n"))
			}
			at++
		}
	})
}
