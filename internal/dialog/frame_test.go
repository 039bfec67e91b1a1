package dialog

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/theme"
)

func testFrame() *Frame {
	f := New(theme.New(true, true))
	f.Head = []string{"Title · who", "", "a message\nof two rows", "URL line"}
	f.Pin = 1
	for _, s := range strings.Fields("b0 b1 b2 b3 b4 b5 b6 b7 b8 b9") {
		f.Body = append(f.Body, s)
	}
	f.Foot = []string{"[ Open ] [ Cancel ]"}
	f.Keys = "enter press · esc cancel"
	return f
}

func TestLinesNoLimitShowsAll(t *testing.T) {
	got := strings.Join(testFrame().Lines(40, 0), "\n")
	for _, want := range []string{"Title", "a message", "URL line", "b0", "b9", "Cancel", "esc cancel"} {
		if !strings.Contains(got, want) {
			t.Fatalf("no %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "more") {
		t.Fatalf("markers with no limit:\n%s", got)
	}
}

// TestHeadSpills: the pinned head always shows; the rest of the head stays
// while the body keeps its rows, and otherwise scrolls with it (blank rows
// dropped first); every height fits.
func TestHeadSpills(t *testing.T) {
	for h := 7; h <= 20; h++ {
		f := testFrame()
		lines := f.Lines(40, h)
		got := strings.Join(lines, "\n")
		if len(lines) > h || !strings.HasPrefix(got, "Title · who") || !strings.HasSuffix(got, "esc cancel") || !strings.Contains(got, "Cancel ]") {
			t.Fatalf("height %d:\n%s", h, got)
		}
		f.EnsureVisible(9)
		got = strings.Join(f.Lines(40, h), "\n")
		if !strings.Contains(got, "b9") || !strings.HasPrefix(got, "Title · who") {
			t.Fatalf("height %d, b9 wanted:\n%s", h, got)
		}
	}
	// 9 rows: title, keys, foot = 3; URL line and the message would leave
	// the body under 3 rows: they scroll, the message first in the body.
	f := testFrame()
	got := ansi.Strip(strings.Join(f.Lines(40, 8), "\n"))
	if !strings.Contains(got, "a message") || !strings.Contains(got, "↓") {
		t.Fatalf("spilled head not at the top of the body:\n%s", got)
	}
	f.MinBody = 7
	if got := strings.Join(f.Lines(40, 12), "\n"); strings.Contains(got, "URL line") && !strings.Contains(got, "↓") {
		t.Fatalf("MinBody not kept:\n%s", got)
	}
}

func TestScrollKeys(t *testing.T) {
	f := testFrame()
	f.Lines(40, 9)
	for _, k := range []string{"pgdown", "pgup", "home", "end", "ctrl+f", "ctrl+b"} {
		if !f.ScrollKey(k) {
			t.Fatalf("%s is not a scroll key", k)
		}
	}
	if f.ScrollKey("enter") {
		t.Fatal("enter scrolls")
	}
	f.End()
	if got := strings.Join(f.Lines(40, 9), "\n"); !strings.Contains(got, "b9") || !strings.Contains(got, "↑") {
		t.Fatalf("end:\n%s", got)
	}
}
