//go:build linux

package main

import (
	"strings"
	"testing"
)

// The emulator is checked on what it must get right for keylat: where a
// character lands after the renderer's moves, scrolls and erasures.
func TestScreen(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // the first rows, trailing blanks cut
	}{
		{"print and wrap", "abcdefghij", []string{"abcdefgh", "ij"}},
		{"pending wrap then CR", "abcdefgh\rX", []string{"Xbcdefgh", ""}},
		{"cursor position", "\x1b[2;3HX\x1b[1;1HY", []string{"Y", "  X"}},
		{"relative moves", "\x1b[3;4Ha\x1b[2A\x1b[2Db\x1b[Bc\x1b[Cd", []string{"  b", "   c d", "   a"}},
		{"CHA VPA", "\x1b[3dx\x1b[5Gy", []string{"", "", "x   y"}},
		{"erase line right", "abcdef\x1b[1;3H\x1b[K", []string{"ab"}},
		{"erase chars", "abcdef\x1b[1;2H\x1b[2X", []string{"a  def"}},
		{"insert and delete chars", "abcdef\x1b[1;2H\x1b[2@\x1b[1;5H\x1b[1P", []string{"a  bdef"}},
		{"REP", "x\x1b[3b", []string{"xxxx"}},
		{"backspace", "ab\x08c", []string{"ac"}},
		{"string sequences are not text", "\x1b]2;title\x07a\x1b]8;;http://x\x1b\\b\x1bP+q\x1b\\c", []string{"abc"}},
		{"SGR and private modes are not text", "\x1b[38;5;141;1ma\x1b[?25l\x1b[>4;2mb\x1b[?2026$pc", []string{"abc"}},
		{"utf-8 and wide", "› 界x", []string{"› 界x"}},
		{"scroll region and LF", "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[3;1H\nX", []string{"1", "3", "X", "4"}},
		{"reverse index", "1\r\n2\r\n3\x1b[1;1H\x1bMX", []string{"X", "1", "2", "3"}},
		{"SU SD", "1\r\n2\r\n3\r\n4\x1b[1S", []string{"2", "3", "4", ""}},
		{"IL DL", "1\r\n2\r\n3\x1b[2;1H\x1b[1L", []string{"1", "", "2", "3"}},
		{"erase display", "1\r\n2\r\n3\x1b[2;1H\x1b[J", []string{"1", "", ""}},
		{"save and restore", "\x1b[2;2H\x1b7\x1b[4;4Ha\x1b8b", []string{"", " b", "", "   a"}},
	} {
		s := newScreen(8, 4)
		s.Write([]byte(tc.in))
		for i, w := range tc.want {
			if got := strings.TrimRight(s.row(i), " "); got != w {
				t.Errorf("%s: row %d = %q, want %q\n%s", tc.name, i, got, w, s)
			}
		}
	}
}

// A sequence cut between two reads is the same sequence.
func TestScreenSplitWrites(t *testing.T) {
	in := "\x1b[2;3H› \x1b]11;?\x07界\x1b[1;1HQ"
	whole := newScreen(10, 3)
	whole.Write([]byte(in))
	for i := 1; i < len(in); i++ {
		s := newScreen(10, 3)
		s.Write([]byte(in[:i]))
		s.Write([]byte(in[i:]))
		if s.String() != whole.String() {
			t.Fatalf("split at %d:\n%s\nwant\n%s", i, s, whole)
		}
	}
}

func TestScreenAnswersQueries(t *testing.T) {
	var got []string
	s := newScreen(10, 3)
	s.reply = func(b string) { got = append(got, b) }
	s.Write([]byte("\x1b]11;?\x07\x1b[?2026$p\x1b[2;5H\x1b[6n\x1b[c"))
	want := []string{"\x1b]11;rgb:0000/0000/0000\x1b\\", "\x1b[?2026;0$y", "\x1b[2;5R", "\x1b[?62;22c"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("replies %q, want %q", got, want)
	}
}

func TestPromptRow(t *testing.T) {
	s := newScreen(20, 5)
	s.Write([]byte("› old\x1b[4;1H› QX\x1b[5;1Hstatus · ready"))
	if y := promptRow(s); y != 3 {
		t.Fatalf("promptRow = %d, want 3", y)
	}
	if !statusReady(s) {
		t.Fatal("statusReady = false")
	}
}
