package fullscreen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/theme"
)

func newTestTranscript() *transcript {
	return newTranscript(newMarkdown(true, true), theme.New(true, true))
}

func TestToolCallUpdatesMergeInPlace(t *testing.T) {
	tr := newTestTranscript()
	tr.toolCall(acpconn.ToolCall{ID: "t1", Status: "in_progress", Title: "early update"})
	tr.toolCall(acpconn.ToolCall{ID: "t1", New: true, Title: "Read README", Kind: "read", Status: "pending"})
	tr.toolCall(acpconn.ToolCall{ID: "t1", Status: "completed", Content: []string{"42 lines"}})
	if len(tr.items) != 1 {
		t.Fatalf("%d entries, want 1", len(tr.items))
	}
	tc := tr.items[0].tool
	if tc.Title != "Read README" || tc.Kind != "read" || tc.Status != "completed" || tc.Content[0] != "42 lines" {
		t.Errorf("merged %+v", tc)
	}
	view, _ := tr.view(80, 5, 0)
	view = ansi.Strip(view)
	for _, want := range []string{"Read README", "[read]", "completed", "42 lines"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
}

func TestStreamingChunksJoinAndRolesSplit(t *testing.T) {
	tr := newTestTranscript()
	tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleThought, Text: "thinking "})
	tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleThought, Text: "hard"})
	tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: "**Hello** "})
	tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: "world"})
	if len(tr.items) != 2 {
		t.Fatalf("%d entries", len(tr.items))
	}
	view, _ := tr.view(80, 10, 0)
	view = ansi.Strip(view)
	if !strings.Contains(view, "thought (2 words") || !strings.Contains(view, "Hello** world") {
		t.Errorf("view:\n%s", view)
	}
	tr.showThoughts = true
	tr.items[0].dirty = true
	view, _ = tr.view(80, 10, 0)
	if !strings.Contains(ansi.Strip(view), "thinking hard") {
		t.Errorf("unfolded thought missing:\n%s", view)
	}
}

func TestFinishedItemsRenderOncePerWidth(t *testing.T) {
	tr := newTestTranscript()
	tr.user("hi")
	tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: "done"})
	tr.endStream()
	tr.view(80, 10, 0)
	c := tr.items[1].body.blocks[0].cache
	first := &c.lines[0]
	tr.view(80, 10, 0)
	if &c.lines[0] != first {
		t.Error("finished item rendered again at the same width")
	}
	tr.view(60, 10, 0)
	if c.width != 60 {
		t.Error("not re-rendered for a new width")
	}
}

func TestScrollOffsetClamps(t *testing.T) {
	tr := newTestTranscript()
	for i := range 30 {
		tr.notice(fmt.Sprintf("line %d", i), false)
	}
	view, off := tr.view(80, 5, 1000)
	if !strings.Contains(ansi.Strip(view), "line 0") {
		t.Errorf("top not reachable:\n%s", view)
	}
	if off >= 1000 {
		t.Errorf("offset not clamped: %d", off)
	}
}

func fill(n int) *transcript {
	tr := newTestTranscript()
	for i := range n {
		tr.user(fmt.Sprintf("question %d", i))
		tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: fmt.Sprintf("Answer **%d** with `code` and a list:\n\n- one\n- two\n", i)})
		tr.endStream()
	}
	tr.view(100, 40, 0)
	return tr
}

// BenchmarkTranscriptView measures one frame while a message streams at
// the end of a transcript of 1,000 and 10,000 messages (a chunk, then the
// view): the cost must not grow with the length. The transcript keeps its
// length: every iteration adds to the same message.
func BenchmarkTranscriptView(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			tr := fill(n / 2)
			tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: "A reply that streams"})
			tr.view(100, 40, 0)
			for b.Loop() {
				tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: " more *text*"})
				tr.view(100, 40, 0)
			}
			if len(tr.items) != n+1 {
				b.Fatalf("%d entries, want %d", len(tr.items), n+1)
			}
		})
	}
}

// BenchmarkTranscriptAppend measures adding one finished message.
func BenchmarkTranscriptAppend(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			tr := fill(n / 2)
			b.ResetTimer()
			for b.Loop() {
				tr.user("one more")
			}
		})
	}
}

// Markdown links stay visible text: no OSC 8 hyperlink reaches the screen,
// so link text cannot hide where it points.
func TestMarkdownLinksAreNotClickable(t *testing.T) {
	md := newMarkdown(true, false)
	out := strings.Join(md.render("see [google.com](https://evil.example/)", 60), "\n")
	if strings.Contains(out, "\x1b]8;") {
		t.Errorf("hyperlink in %q", out)
	}
	plain := ansi.Strip(out)
	if !strings.Contains(plain, "google.com") || !strings.Contains(plain, "https://evil.example/") {
		t.Errorf("link text or target lost: %q", plain)
	}
}

// A notice in the middle of a streamed reply splits it: what streams after
// the notice is drawn below it.
func TestNoticeKeepsTranscriptInOrder(t *testing.T) {
	tr := newTestTranscript()
	tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: "before "})
	tr.notice("refused a request", true)
	tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: "after"})
	view, _ := tr.view(80, 20, 0)
	v := ansi.Strip(view)
	b, n, a := strings.Index(v, "before"), strings.Index(v, "refused"), strings.Index(v, "after")
	if !(b >= 0 && b < n && n < a) {
		t.Errorf("out of order:\n%s", v)
	}
}
