package diffview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// FuzzRender: a permission diff, drawn whole (expanded), shows every
// control of the old and the new text as a marker, and lets none through
// raw: the only escapes in what it draws are its own colours.
func FuzzRender(f *testing.F) {
	f.Add("a\nb\n", "a\nb\x08\n")
	f.Add("", "rm -rf ~/\recho safe\n")
	f.Add("x\r\n", "x\x1b]52;c;eA==\a\r\n\u202e")
	f.Fuzz(func(t *testing.T, old, new string) {
		lines, _ := Render(Diff{Path: "f.sh", Old: old, New: new}, 60, 0, true, colour())
		shown := ""
		for _, l := range lines {
			p := ansi.Strip(l)
			for _, r := range p {
				if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
					t.Fatalf("control %U drawn raw in %q", r, l)
				}
			}
			// What remains after elicit's own SGR is plain text.
			if strings.ContainsRune(strings.NewReplacer("\x1b[m", "", "\x1b[0m", "").Replace(stripSGR(l)), 0x1b) {
				t.Fatalf("an escape other than colour in %q", l)
			}
			shown += p + "\n"
		}
		if old == new { // nothing changes, so no line is drawn: the note says so
			if !strings.Contains(shown, "no changes") {
				t.Fatalf("the same text twice, drawn as:\n%s", shown)
			}
			return
		}
		for c := rune(0); c < 0x20; c++ {
			if c == '\n' || c == '\t' {
				continue
			}
			want := max(controls(old, c), controls(new, c))
			if got := strings.Count(shown, string(0x2400+c)); got < want {
				t.Fatalf("%d of %d %U shown:\n%s", got, want, c, shown)
			}
		}
	})
}

// controls counts c in s as Render shows it: not the CR of a line ending.
func controls(s string, c rune) int {
	if c == '\r' {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return strings.Count(strings.ToValidUTF8(s, "\uFFFD"), string(c))
}

// stripSGR removes SGR sequences (ESC [ params m).
func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
