package fullscreen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/acpconn"
)

// Wrapping a text fed in random pieces gives the same lines as wrapping it
// at once, and no line is wider than the width.
func TestIncrementalWrapMatchesOneShot(t *testing.T) {
	words := []string{"a", "word", "longer-word", "日本語", "x", strings.Repeat("y", 30), "\n", "end."}
	rng := rand.New(rand.NewPCG(1, 2))
	for run := 0; run < 50; run++ {
		var b strings.Builder
		for range 200 {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(5) > 0 {
				b.WriteByte(' ')
			}
		}
		text := b.String()
		width := 12 + rng.IntN(30)
		var once wrapState
		want := once.wrap(text, width)
		var inc wrapState
		var got []string
		for pos := 0; pos < len(text); {
			pos = min(len(text), pos+1+rng.IntN(40))
			got = inc.wrap(text[:pos], width)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("run %d width %d:\ngot  %q\nwant %q", run, width, got, want)
		}
		for _, l := range got {
			if ansi.StringWidth(l) > width {
				t.Fatalf("line wider than %d: %q", width, l)
			}
		}
		// Long words are broken, so compare the characters, not the words.
		if strings.Join(strings.Fields(strings.Join(got, " ")), "") != strings.Join(strings.Fields(text), "") {
			t.Fatalf("text lost or changed in run %d", run)
		}
	}
}

// A streamed message is drawn piece by piece and ends up with everything
// in it, in order.
func TestStreamingMessageRendersEverything(t *testing.T) {
	tr := newTestTranscript()
	parts := []string{"# Title\n\n", "Some **bold** text ", "and more.\n\n", "```go\nx := 1\n", "\ny := 2\n```\n\n", "- one\n- two\n"}
	for _, p := range parts {
		tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: p})
		tr.view(80, 30, 0)
	}
	view, _ := tr.view(80, 30, 0)
	assertInOrder(t, ansi.Strip(view), "Title", "bold", "x := 1", "y := 2", "two")
	tr.endStream()
	view, _ = tr.view(80, 30, 0)
	assertInOrder(t, ansi.Strip(view), "Title", "bold", "x := 1", "y := 2", "two")
}

func assertInOrder(t *testing.T, s string, words ...string) {
	t.Helper()
	pos := 0
	for _, w := range words {
		i := strings.Index(s[pos:], w)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", w, s)
		}
		pos += i + len(w)
	}
}

// lineReply is what a real agent streams: n lines of about 60 bytes, no
// blank line between them.
func lineReply(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%06d the quick brown fox jumps over the lazy dog, again.\n", i)
	}
	return out
}

func streamReply(tr *transcript, chunks []string) {
	for _, c := range chunks {
		tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: c})
	}
}

// rendered counts the blocks of it that hold a render.
func rendered(it *item) int {
	n := 0
	for _, bl := range it.body.blocks {
		if bl.cache != nil && bl.cache.lines != nil {
			n++
		}
	}
	return n
}

// A long reply with no blank line settles into blocks as it streams, and
// a view renders only the blocks it shows, not the whole reply.
func TestLongReplyRendersOnlyWhatIsVisible(t *testing.T) {
	tr := newTestTranscript()
	streamReply(tr, lineReply(5000))
	view, _ := tr.view(100, 32, 0)
	it := tr.items[0]
	if got := len(it.body.blocks); got < it.body.len()/(blockLimit+64) {
		t.Fatalf("%d blocks from %d bytes with no blank line", got, it.body.len())
	}
	if n := rendered(it); n > 2 {
		t.Errorf("%d blocks rendered for a 32-line view", n)
	}
	if !strings.Contains(view, "004999 the quick") {
		t.Errorf("the last line is not on screen:\n%s", view)
	}
}

// The end of a stream renders nothing again: the blocks on screen keep
// the renders they had while streaming, and the screen does not change.
func TestEndOfStreamKeepsRenders(t *testing.T) {
	tr := newTestTranscript()
	streamReply(tr, lineReply(3000))
	tr.view(100, 40, 0) // a fast frame: plain stand-ins
	streamReply(tr, []string{"The **end**.\n"})
	before, _ := tr.view(100, 40, 0) // a slow one: markdown
	it := tr.items[0]
	firsts := map[*block]*string{}
	for _, bl := range it.body.blocks {
		if bl.cache != nil && bl.cache.lines != nil {
			firsts[bl] = &bl.cache.lines[0]
		}
	}
	tail := it.body.tailCache.lines
	tr.endStream()
	after, _ := tr.view(100, 40, 0)
	if before != after {
		t.Errorf("the screen changed at the end of the stream:\n%s\n---\n%s", before, after)
	}
	for bl, first := range firsts {
		if bl.cache == nil || bl.cache.lines == nil || &bl.cache.lines[0] != first {
			t.Error("a settled block was rendered again at the end of the stream")
		}
	}
	last := it.body.blocks[len(it.body.blocks)-1]
	if len(tail) == 0 || last.cache == nil || &last.cache.lines[0] != &tail[0] {
		t.Error("the tail was rendered again when it became the last block")
	}
}

// A reply streamed faster than anyone reads is drawn as plain text while
// it floods, and gets its markdown render when it ends: only the blocks in
// sight, once.
func TestFastStreamGetsMarkdownWhenItEnds(t *testing.T) {
	tr := newTestTranscript()
	streamReply(tr, lineReply(3000))
	streamReply(tr, []string{"The **end**.\n"})
	tr.view(100, 40, 0)
	it := tr.items[0]
	if !it.body.tailCache.cheap {
		t.Fatal("a flood was drawn as markdown")
	}
	tr.endStream()
	tr.view(100, 40, 0)
	for i, bl := range it.body.blocks {
		if bl.cache != nil && bl.cache.lines != nil && bl.cache.cheap {
			t.Errorf("block %d in sight is still plain", i)
		}
	}
	if n := rendered(it); n > 3 {
		t.Errorf("%d blocks rendered for a 40-line view", n)
	}
}

// Any window of the transcript, at any offset, is the same lines as the
// whole transcript drawn at once: block and entry boundaries lose or
// repeat nothing.
func TestScrolledWindowsMatchTheWhole(t *testing.T) {
	tr := newTestTranscript()
	tr.user("a question")
	streamReply(tr, lineReply(200))
	streamReply(tr, []string{"\n\nA paragraph after a blank line.\n\n", "```\ncode\n\nmore\n```\n"})
	tr.endStream()
	tr.notice("a notice", false)
	streamReply(tr, lineReply(120))
	tr.view(90, 10000, 0) // a fast frame, then the markdown renders
	whole, _ := tr.view(90, 10000, 0)
	all := strings.Split(whole, "\n")
	for len(all) > 0 && all[0] == "" {
		all = all[1:]
	}
	for _, h := range []int{1, 7, 32} {
		for off := 0; off < len(all); off += 13 {
			got, clamped := tr.view(90, h, off)
			end := len(all) - clamped
			want := all[max(0, end-h):end]
			g := strings.Split(got, "\n")
			g = g[len(g)-len(want):]
			if strings.Join(g, "\n") != strings.Join(want, "\n") {
				t.Fatalf("height %d offset %d:\ngot  %q\nwant %q", h, off, g, want)
			}
		}
	}
}

// Renders out of sight are dropped: scrolled to the top of a long reply,
// every block is counted on the way but only those in sight keep a
// render; back at the end, only about a screen's worth do.
func TestRendersOutOfSightAreDropped(t *testing.T) {
	tr := newTestTranscript()
	var paras []string
	for i := range 3 * cacheSlack {
		paras = append(paras, fmt.Sprintf("Paragraph %d.\n\n", i))
	}
	streamReply(tr, paras)
	tr.endStream()
	top, _ := tr.view(80, 10, 1<<30) // the top: every block counted on the way
	if !strings.Contains(top, "Paragraph 0.") {
		t.Fatalf("the top is not in view:\n%s", top)
	}
	for i, bl := range tr.items[0].body.blocks {
		if bl.layout != tr.layout {
			t.Fatalf("block %d was not counted on the way to the top", i)
		}
	}
	if n := rendered(tr.items[0]); n > 20 {
		t.Fatalf("%d blocks keep a render scrolled to the top", n)
	}
	tr.view(80, 10, 0)
	if n := rendered(tr.items[0]); n > 20 {
		t.Errorf("%d blocks still hold a render after returning to the end", n)
	}
}
