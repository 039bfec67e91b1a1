package ui

import (
	"bytes"
	"context"
	"testing"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/session"
	"github.com/elicit-dev/elicit/internal/termout"
)

// FuzzLineFrontEnds puts arbitrary text in the event fields `-p` and the
// accessible session print, as acpconn hands them over (display text
// sanitized, ids and the pipe text exact), and checks what each writes
// before its stream's writer: `-p` no escape at all (its stdout keeps CR
// and bidi marks for a pipe), the accessible session plain text only.
// Every call site that prints an id, a stop reason or an exit reason has
// to make it safe itself.
func FuzzLineFrontEnds(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]0;T\a\x1b[5m", "\u202e\u200d\u200b", "a\x9b2Jb", "\r\u200f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		events := []acpconn.Event{
			acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: sanitize.Text(s), Faithful: sanitize.Faithful(s), MessageID: s},
			acpconn.ToolCall{ID: s, New: true, Title: sanitize.Line(s), Status: sanitize.Line(s)},
			acpconn.Plan{Entries: []acpconn.PlanEntry{{Content: sanitize.Text(s), Status: sanitize.Line(s)}}},
			acpconn.UnknownUpdate{Kind: s},
			acpconn.Notice{Text: sanitize.Text(s)},
			acpconn.FileAccess{Op: "refused", Attempt: "write", Path: sanitize.Line(s), Reason: sanitize.Line(s)},
			acpconn.TerminalOutput{TerminalID: s, Chunk: sanitize.Text(s)},
			acpconn.ElicitationComplete{ElicitationID: s},
		}
		var out, errw bytes.Buffer
		h := &headless{ctx: context.Background(), o: HeadlessOptions{Stdout: &out, Stderr: &errw}, core: session.New(nil, session.Policy{}, nil)}
		for _, ev := range append(events, acpconn.TurnEnded{StopReason: s}) {
			if _, done := h.apply(ev); done {
				break
			}
		}
		h2 := &headless{ctx: context.Background(), o: HeadlessOptions{Stdout: &out, Stderr: &errw}, core: session.New(nil, session.Policy{}, nil)}
		h2.apply(acpconn.AgentExited{Reason: sanitize.Line(s), Stderr: []string{sanitize.Line(s)}})
		if msg := termout.Check(out.Bytes(), termout.Pipe); msg != "" {
			t.Fatalf("-p stdout lets through %s", msg)
		}
		if msg := termout.Check(errw.Bytes(), termout.Plain); msg != "" {
			t.Fatalf("-p stderr lets through %s", msg)
		}
		var lines bytes.Buffer
		l := &lineSession{o: LinesOptions{Out: &lines}, core: session.New(nil, session.Policy{Person: true}, nil), tools: map[string]string{}}
		for _, ev := range append(events, acpconn.TurnEnded{StopReason: s}, acpconn.AgentExited{Reason: sanitize.Line(s)}) {
			if _, done := l.apply(ev); done {
				break
			}
		}
		if msg := termout.Check(lines.Bytes(), termout.Plain); msg != "" {
			t.Fatalf("the accessible session lets through %s", msg)
		}
	})
}
