package ui

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/acpconn"
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

func TestSettledBoundary(t *testing.T) {
	cases := []struct {
		text string
		want int
	}{
		{"one paragraph, still going", 0},
		{"first\n\nsecond", len("first\n\n")},
		{"a\n\nb\n\nc", len("a\n\nb\n\n")},
		{"```\ncode\n\nmore code\n", 0},                            // blank line inside an open fence
		{"```\ncode\n\n```\n\nafter", len("```\ncode\n\n```\n\n")}, // fence closed
		{"text\n\n   ```go\nx\n\ny", len("text\n\n")},
	}
	for _, c := range cases {
		if got := settledBoundary(c.text, 0); got != c.want {
			t.Errorf("settledBoundary(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// A streamed message is drawn piece by piece and ends up as one markdown
// render with everything in it.
func TestStreamingMessageRendersEverything(t *testing.T) {
	tr := newTestTranscript()
	parts := []string{"# Title\n\n", "Some **bold** text ", "and more.\n\n", "```go\nx := 1\n", "\ny := 2\n```\n\n", "- one\n- two\n"}
	for _, p := range parts {
		tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: p})
		tr.view(80, 30, 0)
	}
	streamed := ansi.Strip(strings.Join(tr.items[0].lines, "\n"))
	for _, want := range []string{"Title", "bold", "x := 1", "y := 2", "two"} {
		if !strings.Contains(streamed, want) {
			t.Errorf("streaming render lacks %q:\n%s", want, streamed)
		}
	}
	tr.endStream()
	view, _ := tr.view(80, 30, 0)
	if !strings.Contains(ansi.Strip(view), "y := 2") {
		t.Errorf("final render:\n%s", view)
	}
}

// A long finished message keeps its streaming render until the final one,
// made off the event loop, arrives.
func TestLongMessageFinalRenderIsDeferred(t *testing.T) {
	d := newDriver(t, Options{Agent: demoConfig(t)})
	d.connected()
	d.typeText("flood 4000")
	d.key("enter")
	d.until("the turn", func() bool { d.screen(); return d.m.turn == turnIdle })
	var msg *item
	for _, it := range d.m.tr.items {
		if it.kind == kindAgent && it.text.Len() > syncFinalLimit {
			msg = it
		}
	}
	if msg == nil {
		t.Fatal("no long message")
	}
	if !msg.final {
		t.Fatal("the long message was rendered on the event loop, not deferred")
	}
	d.until("the final render", func() bool { return !msg.final })
	if msg.dirty || len(msg.lines) == 0 {
		t.Errorf("final render not applied: dirty %v, %d lines", msg.dirty, len(msg.lines))
	}
}
