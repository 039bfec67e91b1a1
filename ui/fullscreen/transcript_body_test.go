package fullscreen

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func bodyOf(pieces ...string) *mdBody {
	b := &mdBody{}
	for _, p := range pieces {
		b.append(p)
	}
	return b
}

func srcs(b *mdBody) []string {
	var out []string
	for _, bl := range b.blocks {
		out = append(out, b.src(bl))
	}
	return out
}

func TestBlocksSettle(t *testing.T) {
	long := strings.Repeat("a line of text that goes on for a while, sixty bytes long.\n", 40)
	table := "| a | b |\n|---|---|\n" + strings.Repeat("| cell one | cell two, longer than the first |\n", 60)
	cases := []struct {
		name string
		text string
		want []string // settled blocks; the rest is the tail
	}{
		{"one paragraph, still going", "one paragraph, still going", nil},
		{"a blank line ends a block", "first\n\nsecond", []string{"first\n\n"}},
		{"each blank line", "a\n\nb\n\nc", []string{"a\n\n", "b\n\n"}},
		{"leading blank lines are not a block", "\n\nx\n\ny", []string{"\n\nx\n\n"}},
		{"blank line inside an open fence", "```\ncode\n\nmore code\n", nil},
		{"fence closed", "```\ncode\n\n```\n\nafter", []string{"```\ncode\n\n```\n\n"}},
		{"a different fence character does not close", "```\n~~~\n\nx\n", nil},
		{"indented fence", "text\n\n   ```go\nx\n\ny", []string{"text\n\n"}},
		{"no blank line: split at the first line end past the limit", long, []string{long[:strings.Index(long[blockLimit:], "\n")+blockLimit+1]}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := bodyOf(c.text)
			if got := srcs(b); strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("blocks %q, want %q", got, c.want)
			}
			if b.String() != c.text {
				t.Errorf("text changed: %q", b.String())
			}
		})
	}
	t.Run("a table is not split below tableLimit", func(t *testing.T) {
		if b := bodyOf(table); len(b.blocks) != 0 {
			t.Errorf("a %d-byte table split into %d blocks", len(table), len(b.blocks))
		}
	})
	t.Run("a long code block is closed and reopened", func(t *testing.T) {
		code := "~~~~python\n" + strings.Repeat("print('sixty bytes of code, more or less, on each line')\n", 100)
		b := bodyOf(code)
		if len(b.blocks) == 0 {
			t.Fatal("not split")
		}
		for i, s := range srcs(b) {
			if !strings.HasPrefix(s, "~~~~python\n") || !strings.HasSuffix(s, "\n~~~~\n") {
				t.Errorf("block %d is not a whole code block: %q…%q", i, s[:20], s[len(s)-20:])
			}
		}
		if tail := b.tail.String(); !strings.HasPrefix(tail, "~~~~python\n") {
			t.Errorf("the tail does not reopen the fence: %q", tail[:20])
		}
	})
}

// Splitting does not depend on how the text was cut into chunks.
func TestBlocksDoNotDependOnChunking(t *testing.T) {
	parts := []string{"word ", "line\n", "\n", "```go\n", "```\n", "- item\n", "| a | b |\n", strings.Repeat("z", 300), "日本語 "}
	rng := rand.New(rand.NewPCG(3, 4))
	for run := range 30 {
		var text strings.Builder
		for range 400 {
			text.WriteString(parts[rng.IntN(len(parts))])
		}
		s := text.String()
		once := bodyOf(s)
		pieced := &mdBody{}
		for pos := 0; pos < len(s); {
			next := min(len(s), pos+1+rng.IntN(90))
			pieced.append(s[pos:next])
			pos = next
		}
		if strings.Join(srcs(once), "\x00") != strings.Join(srcs(pieced), "\x00") || once.tail.String() != pieced.tail.String() {
			t.Fatalf("run %d: blocks differ with chunking", run)
		}
		for i, bl := range once.blocks {
			if bl.size > tableLimit+400 {
				t.Fatalf("run %d: block %d is %d bytes", run, i, bl.size)
			}
		}
	}
}
