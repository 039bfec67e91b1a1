package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "hello, world", "hello, world"},
		{"newline and tab kept", "a\n\tb", "a\n\tb"},
		{"csi colour", "\x1b[31mred\x1b[0m", "red"},
		{"csi clear screen", "x\x1b[2J\x1b[Hy", "xy"},
		{"osc hyperlink", "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07", "click"},
		{"osc 52 clipboard", "a\x1b]52;c;ZWNobyBwd25lZA==\x1b\\b", "ab"},
		{"osc title st", "\x1b]0;title\x1b\\x", "x"},
		{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"apc", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"bell backspace cr", "a\x07b\x08c\rd", "abcd"},
		{"del", "a\x7fb", "ab"},
		{"c1 csi as rune", "a\u009b31mb", "a31mb"},
		{"c1 nel", "a\u0085b", "ab"},
		{"rlo visible", "abc\u202Egnp.exe", "abc<U+202E>gnp.exe"},
		{"lri pdi visible", "\u2066x\u2069", "<U+2066>x<U+2069>"},
		{"zero width space visible", "pay\u200Bpal", "pay<U+200B>pal"},
		{"bom visible", "\uFEFFhi", "<U+FEFF>hi"},
		{"tag chars visible", "hi\U000E0041", "hi<U+E0041>"},
		{"zwj shown", "👨\u200D👩", "👨<U+200D>👩"},
		{"zwnj shown", "a\u200Cb", "a<U+200C>b"},
		{"soft hyphen shown", "pay\u00ADpal", "pay<U+00AD>pal"},
		{"word joiner shown", "a\u2060b\u2064c", "a<U+2060>b<U+2064>c"},
		{"rlm shown", "a\u200Fb", "a<U+200F>b"},
		{"line separator shown", "a\u2028b", "a<U+2028>b"},
		{"cgj shown", "a\u034Fb", "a<U+034F>b"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
		{"unicode kept", "héllo wörld 日本", "héllo wörld 日本"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Text(c.in); got != c.want {
				t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestLine(t *testing.T) {
	if got := Line("a\nb\tc\x1b[1m"); got != "a b c" {
		t.Errorf("Line = %q", got)
	}
}

func TestCleanTextIsNotCopied(t *testing.T) {
	s := strings.Repeat("plain text ", 10)
	if got := Text(s); got != s {
		t.Fatal("changed clean text")
	}
	allocs := testing.AllocsPerRun(100, func() { _ = Text(s) })
	if allocs != 0 {
		t.Errorf("clean text allocated %v times", allocs)
	}
}

// FuzzText checks the sanitizer's guarantee on any input: no escape or
// control byte survives, output is valid UTF-8, and a second pass changes
// nothing.
func FuzzText(f *testing.F) {
	for _, s := range []string{"hi", "\x1b[31m", "\x1b]8;;x\x07y", "\u202e", "\x9b1m", "a\x1bPb\x1b\\", "\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 {
				t.Fatalf("control %U survived in %q", r, out)
			}
			if Visible(r) {
				t.Fatalf("invisible %U survived in %q", r, out)
			}
		}
		if again := Text(out); again != out {
			t.Fatalf("not idempotent: %q -> %q", out, again)
		}
	})
}

func TestSummary(t *testing.T) {
	if got := Summary("a\n  b\x1b[1m\tc", 10); got != "a b c" {
		t.Errorf("Summary = %q", got)
	}
	if got := Summary("0123456789abc", 10); got != "012345678…" {
		t.Errorf("cut = %q", got)
	}
}

func TestID(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "elic-42", "elic-42"},
		{"osc title clear clipboard", "e\x1b]0;pwned\x07\x1b[2J\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07", "e"},
		{"bidi", "a\u202Eb", "a<U+202E>b"},
		{"newline", "a\nb", "a b"},
		{"long cut", strings.Repeat("x", 100), strings.Repeat("x", 63) + "…"},
		{"exactly the limit", strings.Repeat("y", 64), strings.Repeat("y", 64)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ID(c.in); got != c.want {
				t.Errorf("ID(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestFaithful(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "hello", "hello"},
		{"cr kept", "a\r\nb\rc", "a\r\nb\rc"},
		{"rlm bom zwsp kept", "\uFEFFa\u200Fb\u200Bc\u202E", "\uFEFFa\u200Fb\u200Bc\u202E"},
		{"zwj kept", "👨\u200D👩", "👨\u200D👩"},
		{"csi removed", "a\x1b[31mb\x1b[0m", "ab"},
		{"osc removed", "a\x1b]0;t\x07b", "ab"},
		{"c1 removed", "a\u009b31mb\u0085c", "a31mbc"},
		{"c0 removed", "a\x07\x08\x00b\x7f", "ab"},
		{"invalid utf8", "a\x9bb", "a\uFFFDb"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Faithful(c.in); got != c.want {
				t.Errorf("Faithful(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// FuzzFaithful checks that no ESC, C1 or C0 other than newline, tab and
// carriage return survives Faithful, whatever the input.
func FuzzFaithful(f *testing.F) {
	for _, s := range []string{"a\r\n", "\x1b[31m", "\x1b]8;;x", "\u200f", "\xc2\x9b1m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Faithful(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' && r != '\r' || r == 0x7f || r >= 0x80 && r < 0xa0 {
				t.Fatalf("control %U survived in %q", r, out)
			}
		}
	})
}

// FuzzSummary: Summary's fast path answers as the whole path does.
func FuzzSummary(f *testing.F) {
	for _, s := range []string{"Form 1 of 1000", " lead", "trail ", "two  spaces", "tab\there", "", "a", "é", "\u00a0nbsp", "\x1b[2Jx"} {
		f.Add(s, 10)
		f.Add(s, 200)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 1 || n > 1000 {
			return
		}
		if got, want := Summary(s, n), summary(s, n); got != want {
			t.Fatalf("Summary(%q, %d) = %q, want %q", s, n, got, want)
		}
	})
}
