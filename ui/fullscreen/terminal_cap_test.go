package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
)

// Issue 27, item 3: the output of a terminal no tool call names goes into
// one entry, capped like a tool call's: it made one entry per chunk, so a
// command printing gigabytes made the transcript hold them all.
func TestUnlinkedTerminalOutputIsOneCappedEntry(t *testing.T) {
	tr := newTestTranscript()
	chunk := strings.Repeat("x", 1000) + "\n"
	for i := 0; i < 2000; i++ {
		tr.terminalOutput(acpconn.TerminalOutput{TerminalID: "term-1", Chunk: chunk})
		tr.terminalOutput(acpconn.TerminalOutput{TerminalID: "term-2", Chunk: chunk})
	}
	tr.terminalOutput(acpconn.TerminalOutput{TerminalID: "term-1", Exited: true})
	if len(tr.items) != 2 {
		t.Fatalf("%d entries for two terminals", len(tr.items))
	}
	for _, it := range tr.items {
		if it.output.Len() > maxToolOutput {
			t.Errorf("an entry holds %d bytes of output", it.output.Len())
		}
	}
}

// An entry of a terminal's output from before a tool call named it ends
// with the command, not left "in progress".
func TestUnlinkedEntryEndsWithItsCommand(t *testing.T) {
	tr := newTestTranscript()
	tr.terminalOutput(acpconn.TerminalOutput{TerminalID: "term-1", Chunk: "early\n"})
	tr.toolCall(acpconn.ToolCall{ID: "t1", New: true, Title: "Run", Status: "in_progress"})
	tr.terminalOutput(acpconn.TerminalOutput{TerminalID: "term-1", ToolCallID: "t1", Chunk: "late\n"})
	tr.terminalOutput(acpconn.TerminalOutput{TerminalID: "term-1", ToolCallID: "t1", Exited: true})
	if len(tr.items) != 2 {
		t.Fatalf("%d entries", len(tr.items))
	}
	if u := tr.items[0]; u.tool.Status != "completed" || !strings.Contains(u.output.String(), "the rest is in its tool call") {
		t.Errorf("the early entry: %q, %q", u.tool.Status, u.output.String())
	}
}
