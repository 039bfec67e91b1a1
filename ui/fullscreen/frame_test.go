package fullscreen

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/theme"
)

var frameSizes = [][2]int{{120, 40}, {80, 24}, {60, 16}}

func testFrame() *frame {
	f := newFrame(theme.New(true, false))
	f.title, f.who = "Settings", "elicit · demo agent"
	for i := range 100 {
		f.body = append(f.body, fmt.Sprintf("entry %d", i))
	}
	f.body[50] = "entry 50 " + strings.Repeat("long words wrap ", 20) + "END"
	f.foot = []string{"1 Allow once", "2 Reject"}
	f.keys = "↑/↓ move · pgup/pgdn scroll · enter choose · esc close"
	return f
}

// screen draws f and checks what every size must keep.
func screen(t *testing.T, f *frame, w, h int) []string {
	t.Helper()
	lines := strings.Split(ansi.Strip(f.view(w, h)), "\n")
	if len(lines) > h {
		t.Fatalf("%dx%d: %d lines", w, h, len(lines))
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{"Settings", "demo agent", "esc close", "1 Allow once", "2 Reject"} {
		if !strings.Contains(strings.ReplaceAll(text, "│\n│", ""), want) && !strings.Contains(text, want) {
			t.Fatalf("%dx%d: %q not visible:\n%s", w, h, want, text)
		}
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > w {
			t.Fatalf("%dx%d: a line of %d cells: %q", w, h, ansi.StringWidth(l), l)
		}
	}
	return lines
}

func has(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

func TestFrameKeepsHeadAndKeysAndCursor(t *testing.T) {
	for _, sz := range frameSizes {
		w, h := sz[0], sz[1]
		f := testFrame()
		lines := screen(t, f, w, h)
		if !has(lines, "entry 0") || hasMore(lines, "↑") || !hasMore(lines, "↓") {
			t.Fatalf("%dx%d top:\n%s", w, h, strings.Join(lines, "\n"))
		}
		for _, cur := range []int{70, 99, 3, 50} {
			f.ensureVisible(cur)
			lines = screen(t, f, w, h)
			if !has(lines, fmt.Sprintf("entry %d", cur)) {
				t.Fatalf("%dx%d: cursor line %d not visible:\n%s", w, h, cur, strings.Join(lines, "\n"))
			}
		}
		if !has(lines, "END") { // line 50 wraps, whole
			t.Fatalf("%dx%d: the wrapped line lost its end:\n%s", w, h, strings.Join(lines, "\n"))
		}
		f.end()
		lines = screen(t, f, w, h)
		if !has(lines, "entry 99") || hasMore(lines, "↓") || !hasMore(lines, "↑") {
			t.Fatalf("%dx%d end:\n%s", w, h, strings.Join(lines, "\n"))
		}
		f.home()
		f.pageDown()
		lines = screen(t, f, w, h)
		if has(lines, "entry 0") || !hasMore(lines, "↑") {
			t.Fatalf("%dx%d page down:\n%s", w, h, strings.Join(lines, "\n"))
		}
		f.pageUp()
		if lines = screen(t, f, w, h); !has(lines, "entry 0") {
			t.Fatalf("%dx%d page up:\n%s", w, h, strings.Join(lines, "\n"))
		}
	}
}

func TestFrameShortBodyHasNoMarkers(t *testing.T) {
	f := testFrame()
	f.body = f.body[:3]
	for _, sz := range frameSizes {
		lines := screen(t, f, sz[0], sz[1])
		if hasMore(lines, "↑") || hasMore(lines, "↓") || !has(lines, "entry 2") {
			t.Fatalf("%v:\n%s", sz, strings.Join(lines, "\n"))
		}
	}
}

// hasMore reports a scroll marker ("↑ N more", "↓ N more").
func hasMore(lines []string, arrow string) bool {
	re := regexp.MustCompile(arrow + ` \d+ more`)
	for _, l := range lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}
