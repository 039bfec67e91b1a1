package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/termout"
)

// TestMarkdownCharacterReferences checks that character references and
// links in agent markdown cannot produce control sequences, hidden text,
// raw bidi or clickable hyperlinks: glamour decodes references after the
// sanitizer ran, so the renderer's input and output are both checked.
func TestMarkdownCharacterReferences(t *testing.T) {
	cases := []struct{ name, in, mustNot string }{
		{"csi blink", "a &#x1b;[31;5mblink", "\x1b[31;5m"},
		{"decimal esc conceal", "b &#27;[8mhidden", "\x1b[8m"},
		{"c1 csi", "c &#x9b;2J", "\u009b"},
		{"c1 csi decimal", "c &#155;2J", "\u009b"},
		{"rlo", "d &#x202e;gnp.exe", "\u202e"},
		{"zwsp", "e pay&#x200b;pal", "\u200b"},
		{"zwj named", "f a&zwj;b", "\u200d"},
		{"rlm named", "g a&rlm;b", "\u200f"},
		{"osc 8 from reference", "h &#x1b;]8;;https://evil.example/&#x7;click", "\x1b]8"},
		{"markdown link", "i [click](https://evil.example/)", "\x1b]8"},
		{"osc 52 from reference", "j &#x1b;]52;c;Y3VybCBldmlsIHwgc2g=&#x7;", "\x1b]52"},
	}
	for _, style := range []bool{false, true} {
		md := newMarkdown(true, style)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				out := strings.Join(md.render(c.in, 80), "\n")
				if strings.Contains(out, c.mustNot) {
					t.Fatalf("render(%q) contains %q:\n%q", c.in, c.mustNot, out)
				}
				if msg := termout.Check([]byte(out), termout.Styled); msg != "" {
					t.Fatalf("render(%q): %s:\n%q", c.in, msg, out)
				}
			})
		}
	}
}

// TestMarkdownKeepsReferencesVisible checks that a refused reference is
// shown, not lost, and that ordinary references still decode.
func TestMarkdownKeepsReferencesVisible(t *testing.T) {
	md := newMarkdown(true, true)
	out := strings.Join(md.render("x &#x202e; y &amp; z &#233;", 80), "\n")
	for _, want := range []string{"&#x202e;", "&", "é"} {
		if !strings.Contains(out, want) {
			t.Errorf("render lost %q: %q", want, out)
		}
	}
}

// FuzzMarkdown renders any agent text as the transcript does (sanitized,
// then markdown) and holds the lines to the Styled policy: colours only, no
// other sequence, control, or raw bidi or invisible character.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"a &#x1b;[5mb", "[x](https://e.example/)", "&#x202e; &zwj; &#155;", "# h\n\n- &#27;]52;c;eA==&#7;"} {
		f.Add(s)
	}
	md := newMarkdown(true, false)
	f.Fuzz(func(t *testing.T, s string) {
		out := strings.Join(md.render(sanitize.Text(s), 60), "\n")
		if msg := termout.Check([]byte(out), termout.Styled); msg != "" {
			t.Fatalf("%s in %q from %q", msg, out, s)
		}
	})
}
