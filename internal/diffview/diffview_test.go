package diffview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/theme"
)

// file is n numbered lines of Go, each ending in eol.
func file(n int, eol string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\tx%d := %d // line %d%s", i, i, i, eol)
	}
	return b.String()
}

func plain(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Strip(l)
	}
	return out
}

func index(lines []string, sub string) int {
	for i, l := range lines {
		if strings.Contains(l, sub) {
			return i
		}
	}
	return -1
}

func colour() *theme.Theme { return theme.New(true, false) }

func TestOneLineChangeOnLine30(t *testing.T) {
	old := file(200, "\n")
	new := strings.Replace(old, "x30 := 30", "x30 := 3000", 1)
	for _, width := range []int{120, 80, 56} {
		got, folded := Render(Diff{Path: "/r/main.go", Old: old, New: new}, width, 12, false, colour())
		lines := plain(got)
		if len(lines) > 12 {
			t.Fatalf("%d lines at width %d:\n%s", len(lines), width, strings.Join(lines, "\n"))
		}
		h, del, ins := index(lines, "@@ -27,7 +27,7 @@"), index(lines, " 30     - "), index(lines, "    30 + ")
		if h < 0 || del < 0 || ins < 0 || !strings.Contains(lines[ins], "x30 := 3000") || !(h < del && del < ins) {
			t.Fatalf("width %d: header %d, old line %d, new line %d:\n%s", width, h, del, ins, strings.Join(lines, "\n"))
		}
		if index(lines, "@@ -27,7 +27,7 @@  ⋯ 26 more lines") != 1 || !strings.Contains(lines[len(lines)-1], "⋯ 167 more lines") || folded != 193 {
			t.Fatalf("markers or folded (%d) wrong:\n%s", folded, strings.Join(lines, "\n"))
		}
		if !strings.Contains(lines[0], "main.go") || !strings.Contains(lines[0], "+1 -1") {
			t.Fatalf("title %q", lines[0])
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > width {
				t.Fatalf("row of %d columns at width %d: %q", w, width, l)
			}
		}
	}
}

func TestExpandedShowsTheWholeFile(t *testing.T) {
	old := file(200, "\n")
	new := strings.Replace(old, "x30 := 30", "x30 := 3000", 1)
	got, folded := Render(Diff{Path: "main.go", Old: old, New: new}, 100, 0, true, colour())
	lines := plain(got)
	if folded != 0 || index(lines, "⋯") >= 0 {
		t.Fatalf("folded %d in the expanded view", folded)
	}
	if index(lines, "@@ -1,200 +1,200 @@") < 0 || index(lines, "200 200   ") < 0 || index(lines, "  1   1   ") < 0 {
		t.Fatalf("not the whole file:\n%s", strings.Join(lines[:5], "\n"))
	}
	if len(lines) != 1+1+201 {
		t.Fatalf("%d rows, want title, header, 201 lines", len(lines))
	}
}

func TestNewFile(t *testing.T) {
	got, folded := Render(Diff{Path: "new.py", New: "import os\nprint(os.name)\n"}, 80, 0, false, colour())
	lines := plain(got)
	want := []string{"new.py · new file · +2 -0", "@@ -0,0 +1,2 @@", "  1 + import os", "  2 + print(os.name)"}
	for i, w := range want {
		if i >= len(lines) || strings.TrimRight(lines[i], " ") != w {
			t.Fatalf("row %d: got\n%s\nwant %q", i, strings.Join(lines, "\n"), w)
		}
	}
	if folded != 0 || len(lines) != len(want) {
		t.Fatalf("folded %d, %d rows", folded, len(lines))
	}
}

func TestDeletion(t *testing.T) {
	old := file(50, "\n")
	var keep []string
	for i, l := range strings.SplitAfter(old, "\n") {
		if i < 9 || i > 11 { // lines 10-12 go
			keep = append(keep, l)
		}
	}
	got, _ := Render(Diff{Path: "a.go", Old: old, New: strings.Join(keep, "")}, 80, 0, false, nil)
	lines := plain(got)
	for _, w := range []string{"@@ -7,9 +7,6 @@", "10    - ", "11    - ", "12    - ", "13 10   ", "15 12   ", "+0 -3"} {
		if index(lines, w) < 0 {
			t.Fatalf("no %q in\n%s", w, strings.Join(lines, "\n"))
		}
	}
	got, _ = Render(Diff{Path: "a.go", Old: "one\ntwo\n"}, 80, 0, false, nil)
	if lines := plain(got); !strings.Contains(lines[0], "emptied") || index(lines, "@@ -1,2 +0,0 @@") < 0 {
		t.Fatalf("emptied file:\n%s", strings.Join(lines, "\n"))
	}
}

func TestCRLF(t *testing.T) {
	old := file(20, "\r\n")
	new := strings.Replace(old, "x5 := 5", "x5 := 50", 1)
	got, _ := Render(Diff{Path: "w.go", Old: old, New: new}, 80, 0, false, colour())
	for _, l := range got {
		if strings.ContainsAny(l, "\r\n") {
			t.Fatalf("a line break in a row: %q", l)
		}
	}
	lines := plain(got)
	if index(lines, "@@ -2,7 +2,7 @@") < 0 || index(lines, "line endings") >= 0 {
		t.Fatalf("CRLF diff:\n%s", strings.Join(lines, "\n"))
	}
	got, _ = Render(Diff{Path: "w.go", Old: old, New: strings.ReplaceAll(old, "\r\n", "\n")}, 80, 5, false, nil)
	if lines := plain(got); !strings.Contains(lines[0], "line endings CRLF → LF") {
		t.Fatalf("line ending change not named: %q", lines[0])
	}
}

func TestMaxLinesCutsWithAMarker(t *testing.T) {
	old := file(100, "\n")
	new := strings.NewReplacer("x10 :=", "y10 :=", "x50 :=", "y50 :=", "x90 :=", "y90 :=").Replace(old)
	all, allFolded := Render(Diff{Path: "m.go", Old: old, New: new}, 80, 0, false, nil)
	got, folded := Render(Diff{Path: "m.go", Old: old, New: new}, 80, 10, false, nil)
	lines := plain(got)
	if len(lines) != 10 || !strings.HasPrefix(lines[9], "⋯ ") || folded <= allFolded {
		t.Fatalf("cut to %d rows (of %d), folded %d (uncut %d):\n%s", len(lines), len(all), folded, allFolded, strings.Join(lines, "\n"))
	}
	// Every line of the file is either shown or counted as folded.
	shown := 0
	for _, l := range lines {
		if strings.Contains(l, " x") || strings.Contains(l, " y") {
			shown++
		}
	}
	if n := strings.Count(lines[9], ""); n == 0 || shown+folded < 100 {
		t.Fatalf("shown %d + folded %d < 100", shown, folded)
	}
}

func TestAgentTextIsSanitized(t *testing.T) {
	new := "ok\nevil \x1b]52;c;cHduZWQ=\x07 \x1b[2J\u202e line\n"
	got, _ := Render(Diff{Path: "x\x1b[31m.txt", Old: "ok\n", New: new}, 80, 0, false, colour())
	for _, l := range got {
		if strings.Contains(l, "\x1b]") || strings.Contains(l, "\x1b[2J") || strings.Contains(l, "\u202e") || strings.Contains(l, "\x1b[31m.txt") || strings.Contains(l, "\a") {
			t.Fatalf("agent escape reached the screen: %q", l)
		}
	}
	// Shown, not dropped: the diff is what will be written.
	lines := plain(got)
	for _, want := range []string{"<U+202E>", "␛]52;c;cHduZWQ=␇", "␛[2J", "x␛[31m.txt"} {
		if index(lines, want) < 0 {
			t.Fatalf("%q not shown:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

// Issue 27 case 15: C0 controls are markers in the diff, not dropped.
func TestControlsShownAsMarkers(t *testing.T) {
	got, _ := Render(Diff{Path: "config.sh", New: "rm -rf ~/\recho safe\nnul\x00 bs\x08\n"}, 80, 0, false, nil)
	lines := plain(got)
	if index(lines, "rm -rf ~/␍echo safe") < 0 || index(lines, "nul␀ bs␈") < 0 {
		t.Fatalf("controls not shown:\n%s", strings.Join(lines, "\n"))
	}
	// A CRLF ending is a line ending, not a marker.
	got, _ = Render(Diff{Path: "w.txt", Old: "a\r\n", New: "b\r\n"}, 80, 0, false, nil)
	if lines := plain(got); index(lines, "␍") >= 0 {
		t.Fatalf("CRLF shown as a marker:\n%s", strings.Join(lines, "\n"))
	}
}

func TestLongLinesWrap(t *testing.T) {
	long := strings.Repeat("word ", 40) + "END"
	got, _ := Render(Diff{Path: "l.txt", Old: "a\n", New: "a\n" + long + "\n"}, 40, 0, false, colour())
	lines := plain(got)
	joined := strings.Join(lines, "\n")
	if !strings.Contains(joined, "END") {
		t.Fatalf("the end of a long line was clipped:\n%s", joined)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 40 {
			t.Fatalf("row wider than 40: %q", l)
		}
	}
}

func TestNoChanges(t *testing.T) {
	got, folded := Render(Diff{Path: "same.go", Old: "a\n", New: "a\n"}, 80, 0, false, nil)
	if len(got) != 1 || !strings.Contains(got[0], "no changes") || folded != 0 {
		t.Fatalf("%q %d", got, folded)
	}
}

func BenchmarkRender10k(b *testing.B) {
	old := file(10000, "\n")
	one := strings.Replace(old, "x5000 := 5000", "x5000 := 1", 1)
	many := strings.ReplaceAll(old, "0 // line", "0 // LINE") // every tenth line
	th := colour()
	for _, bc := range []struct {
		name     string
		new      string
		expanded bool
		max      int
	}{
		{"one-change", one, false, 40},
		{"one-change-expanded", one, true, 0},
		{"1000-changes", many, false, 40},
		{"1000-changes-all-rows", many, false, 0},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				Render(Diff{Path: "big.go", Old: old, New: bc.new}, 120, bc.max, bc.expanded, th)
			}
		})
	}
}
