package fullscreen

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/theme"
)

// selectSchema is a form schema with one select of n options.
func selectSchema(n int) []byte {
	opts := make([]string, n)
	for i := range opts {
		opts[i] = fmt.Sprintf("%q", fmt.Sprintf("option-%d", i))
	}
	return []byte(`{"type":"object","properties":{"pick":{"type":"string","enum":[` + strings.Join(opts, ",") + `]}}}`)
}

// benchSchema is a form schema with n string fields, each with a default;
// n = 1 is the demo agent's /forms schema.
func benchSchema(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"f%d":{"type":"string","title":"Field %d","description":"What field %d is for.","default":"ok"}`, i, i, i)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// BenchmarkElicitationToScreen is the time from a form request arriving
// (its schema parsed, as acpconn does before the event) to the screen that
// shows it: the eventsMsg through Update, then View, over a transcript of
// 1,000 messages in a 120x40 terminal, for one field, 50 fields and one
// 5,000-option select. There is no agent: the model's conn is nil, and
// nothing here answers the request.
func BenchmarkElicitationToScreen(b *testing.B) {
	tests := []struct {
		name string
		raw  []byte
	}{
		{"fields=1", benchSchema(1)},
		{"fields=50", benchSchema(50)},
		{"options=5000", selectSchema(5000)},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			raw := tt.raw
			m := New(Options{NoColor: false})
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			for i := range 500 {
				m.tr.user(fmt.Sprintf("question %d", i))
				m.tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: fmt.Sprintf("Answer **%d** with `code`.\n", i)})
				m.tr.endStream()
			}
			_ = m.View()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s, err := schema.ParseSchema(raw)
				if err != nil {
					b.Fatal(err)
				}
				req := question.Asked{Q: &question.Question{ID: uint64(i + 1), Kind: question.Form, Message: "Please answer.", Schema: s}}
				m.Update(eventsMsg{events: []acpconn.Event{req}})
				screen := m.View().Content
				b.StopTimer()
				if !strings.Contains(ansi.Strip(screen), "Please answer.") {
					b.Fatalf("the form is not on screen:\n%s", ansi.Strip(screen))
				}
				f := m.queue.front()
				m.queue.remove(f)
				m.core.Answer(f.question(), question.Outcome{Action: question.Cancel})
				b.StartTimer()
			}
		})
	}
}

// BenchmarkStreamedMessage measures one long agent reply as a real agent
// streams it, 60-byte lines with no blank line between, after 20,000 and
// 100,000 chunks (1.2 and 6 MB) on a 200x60 screen:
//   - streaming: one frame while it streams (one more line, then the view);
//   - finished: the frame that shows the turn ended (endStream, then the
//     view), the render a user waits for after "ready";
//   - resized: the first frame of the finished reply at a new width.
func BenchmarkStreamedMessage(b *testing.B) {
	md, th := newMarkdown(true, false), theme.New(true, false) // as on a colour terminal
	const width, height = 200, 60
	for _, n := range []int{20000, 100000} {
		lines := lineReply(n)
		more := "one more line of about sixty bytes, as the agent streams it.\n"
		b.Run(fmt.Sprintf("streaming/chunks=%d", n), func(b *testing.B) {
			tr := benchTranscript(b, md, th)
			streamReply(tr, lines)
			tr.view(width, height, 0)
			for b.Loop() {
				tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: more})
				tr.view(width, height, 0)
			}
		})
		b.Run(fmt.Sprintf("finished/chunks=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				tr := benchTranscript(b, md, th)
				streamReply(tr, lines)
				tr.view(width, height, 0)
				tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: more})
				b.StartTimer()
				tr.endStream()
				tr.view(width, height, 0)
			}
		})
		b.Run(fmt.Sprintf("resized/chunks=%d", n), func(b *testing.B) {
			tr := benchTranscript(b, md, th)
			streamReply(tr, lines)
			tr.endStream()
			for i := 0; i < b.N; i++ {
				tr.view(width-i%2, height, 0) // a width it has no render for
			}
		})
	}
}

// benchTranscript is a transcript whose older text goes to a file in a
// test directory, not the user's state directory.
func benchTranscript(b *testing.B, md *markdown, th *theme.Theme) *transcript {
	tr := newTranscript(md, th)
	tr.log = newTextLog(b.TempDir(), logKeep)
	b.Cleanup(tr.close)
	return tr
}
