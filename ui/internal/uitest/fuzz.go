package uitest

import (
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// FuzzSeeds are the hostile strings every front end's fuzzer starts from.
var FuzzSeeds = []string{"plain", "\x1b]0;T\a\x1b[5m", "\u202e\u200d\u200b", "a\x9b2Jb", "\r\u200f"}

// FuzzEvents puts s in every event field a line front end prints, as
// acpconn hands them over: display text sanitized, ids and the pipe text
// exact. Every call site that prints an id, a stop reason or an exit
// reason has to make it safe itself.
func FuzzEvents(s string) []acpconn.Event {
	return []acpconn.Event{
		acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: sanitize.Text(s), Faithful: sanitize.Faithful(s), MessageID: s},
		acpconn.ToolCall{ID: s, New: true, Title: sanitize.Line(s), Status: sanitize.Line(s)},
		acpconn.Plan{Entries: []acpconn.PlanEntry{{Content: sanitize.Text(s), Status: sanitize.Line(s)}}},
		acpconn.UnknownUpdate{Kind: s},
		acpconn.Notice{Text: sanitize.Text(s)},
		acpconn.FileAccess{Op: "refused", Attempt: "write", Path: sanitize.Line(s), Reason: sanitize.Line(s)},
		acpconn.TerminalOutput{TerminalID: s, Chunk: sanitize.Text(s)},
		question.FlowComplete{ElicitationID: s},
		acpconn.TurnEnded{StopReason: s},
	}
}

// Fuzz runs check on every hostile string: FuzzSeeds first, then the
// fuzzer's own.
func Fuzz(f *testing.F, check func(t *testing.T, s string)) {
	for _, s := range FuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(check)
}
