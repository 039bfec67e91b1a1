package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDiffShowsControls(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "echo hello\n", "echo hello\n"},
		{"crlf kept", "a\r\nb\r\n", "a\r\nb\r\n"},
		{"lone cr shown", "rm -rf ~/\recho safe", "rm -rf ~/␍echo safe"},
		{"cr at the end shown", "x\r", "x␍"},
		{"nul and backspace", "a\x00b\x08c", "a␀b␈c"},
		{"escape sequence made inert", "\x1b]0;title\x07x", "␛]0;title␇x"},
		{"csi", "\x1b[2Jy", "␛[2Jy"},
		{"del", "a\x7fb", "a␡b"},
		{"c1", "a\u009bb", "a<U+009B>b"},
		{"bidi", "a\u202eb", "a<U+202E>b"},
		{"tab and newline kept", "\ta\n", "\ta\n"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
	}
	for _, c := range cases {
		if got := Diff(c.in); got != c.want {
			t.Errorf("%s: Diff(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// Text drops the very bytes Diff must show: the case of the issue.
func TestTextDropsWhatDiffShows(t *testing.T) {
	in := "rm -rf ~/\recho safe"
	if Text(in) != "rm -rf ~/echo safe" || Diff(in) == Text(in) {
		t.Fatalf("Text %q, Diff %q", Text(in), Diff(in))
	}
}

func FuzzDiff(f *testing.F) {
	for _, s := range []string{"a\r\nb", "x\ry", "\x00\x08\x1b[31m", "\u202e\u200b", "\xc2\x9b", "\xff", "\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Diff(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for i, r := range out {
			if r == '\r' && strings.HasPrefix(out[i:], "\r\n") {
				continue
			}
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || Visible(r) {
				t.Fatalf("%U left as is in %q (from %q)", r, out, s)
			}
		}
		// Nothing is dropped: unless the input holds markers of its own,
		// the output maps back to it exactly.
		if !strings.Contains(s, "<U+") && !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x2400 && r <= 0x2421 }) {
			if back := Unshown(out); back != strings.ToValidUTF8(s, "\uFFFD") {
				t.Fatalf("lost something: %q -> %q -> %q", s, out, back)
			}
		}
	})
}

func TestDiffLine(t *testing.T) {
	if got := DiffLine("a\tb\r\nc\nd\x00"); got != "a␉b␍␊c␊d␀" {
		t.Errorf("DiffLine = %q", got)
	}
}
