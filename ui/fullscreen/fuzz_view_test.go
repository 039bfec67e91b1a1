package fullscreen

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/termout"
	"github.com/elicit-dev/elicit/question"
)

// FuzzFullScreenView puts arbitrary text in every event field the full
// screen draws, as acpconn hands them over (display text sanitized, ids
// exact), and checks the view itself, before any output filter, holds
// nothing but text and colours: every call site that draws an id, a stop
// reason or an exit reason has to make it safe.
func FuzzFullScreenView(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]0;T\a\x1b[5m", "\u202e\u200d\u200b", "a\x9b2Jb", "&#x1b;[31m", "\x1b]8;;https://e.x\a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m := New(Options{Agent: acpconn.Config{Argv: []string{"agent"}}, NoColor: true})
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
		text := sanitize.Text(s)
		for _, ev := range []acpconn.Event{
			acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: text},
			acpconn.ToolCall{ID: s, New: true, Title: sanitize.Line(s), Status: "in_progress", Locations: []string{sanitize.Line(s)}, Content: []string{text}},
			acpconn.ToolCall{ID: "t2", New: true, Status: "pending"},
			acpconn.TerminalOutput{TerminalID: s, ToolCallID: s, Chunk: text},
			acpconn.Plan{Entries: []acpconn.PlanEntry{{Content: text, Status: sanitize.Line(s)}}},
			acpconn.ModeChanged{ID: s},
			acpconn.UnknownUpdate{Kind: s},
			acpconn.Notice{Text: text},
			acpconn.FileAccess{Op: "write", Path: sanitize.Line(s), Old: text, New: text + "x"},
			question.FlowComplete{ElicitationID: s},
			acpconn.TurnEnded{StopReason: s},
			acpconn.AgentExited{Reason: sanitize.Line(s), Stderr: []string{sanitize.Line(s)}},
		} {
			m.acp().apply(ev)
		}
		if msg := termout.Check([]byte(m.View().Content), termout.View); msg != "" {
			t.Fatalf("the view lets through %s", msg)
		}
	})
}
