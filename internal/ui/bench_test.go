package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/schema"
	"github.com/elicit-dev/elicit/internal/session"
	"github.com/elicit-dev/elicit/internal/theme"
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
				req := acpconn.ElicitationRequest{ID: uint64(i + 1), Mode: "form", Message: "Please answer.", Schema: s}
				m.Update(eventsMsg{events: []acpconn.Event{req}})
				screen := m.View().Content
				b.StopTimer()
				if !strings.Contains(ansi.Strip(screen), "Please answer.") {
					b.Fatalf("the form is not on screen:\n%s", ansi.Strip(screen))
				}
				f := m.queue.front()
				m.queue.remove(f)
				m.core.Answer(f.question(), session.Outcome{Action: session.Cancel})
				b.StartTimer()
			}
		})
	}
}

// floodText is what the demo agent's "flood n" streams: n short words.
func floodText(n int) string {
	words := []string{"lorem ", "ipsum ", "dolor ", "sit ", "amet ", "elit ", "sed ", "do "}
	var b strings.Builder
	for i := range n {
		b.WriteString(words[i%len(words)])
	}
	return b.String()
}

// BenchmarkStreamedMessage measures the two costs of one long streamed
// agent message in the transcript: a redraw while it is still streaming
// (once per flush interval), and the markdown render once it has finished
// (once, on the frame that shows the turn ended), after 20,000 and 40,000
// chunks of the demo agent's flood.
func BenchmarkStreamedMessage(b *testing.B) {
	md, th := newMarkdown(true, false), theme.New(true, false) // as on a colour terminal
	for _, n := range []int{20000, 40000} {
		text := floodText(n)
		b.Run(fmt.Sprintf("streaming/chunks=%d", n), func(b *testing.B) {
			tr := newTranscript(md, th)
			tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: text})
			for b.Loop() {
				tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: "x "})
				tr.view(120, 38, 0)
			}
		})
		b.Run(fmt.Sprintf("final-render/chunks=%d", n), func(b *testing.B) {
			// The markdown render of the finished message, made off the
			// event loop (finalRenders); it costs this, but not a frame.
			for b.Loop() {
				md.render(text, 120)
			}
		})
		b.Run(fmt.Sprintf("finished/chunks=%d", n), func(b *testing.B) {
			for b.Loop() {
				tr := newTranscript(md, th)
				tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: text})
				tr.endStream()
				tr.view(120, 38, 0)
			}
		})
	}
}
