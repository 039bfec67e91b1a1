package fullscreen

import (
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// maxRefusals bounds the refusals kept for tool calls not seen yet.
const maxRefusals = 256

// maxToolOutput is how much of a terminal's output a tool entry keeps.
const maxToolOutput = 16 << 10

// terminalOutput streams a command's output into its tool call's entry.
func (t *transcript) terminalOutput(ev acpconn.TerminalOutput) {
	// A terminal no tool call names gets one entry of its own, found by
	// its terminal id: an entry per chunk made a flood of output a flood
	// of entries, past any cap.
	entries, key := t.tools, ev.ToolCallID
	if key == "" {
		entries, key = t.terms, ev.TerminalID
	}
	it := entries[key]
	if it == nil {
		if ev.Chunk == "" {
			return
		}
		it = t.add(&item{kind: kindTool, tool: acpconn.ToolCall{ID: ev.ToolCallID, Title: "terminal " + sanitize.ID(ev.TerminalID), Status: "in_progress"}})
		entries[key] = it
	}
	it.output.WriteString(ev.Chunk)
	if ev.Exited {
		if s := it.output.String(); s != "" && !strings.HasSuffix(s, "\n") {
			it.output.WriteByte('\n') // the exit on a line of its own
		}
		fmt.Fprintf(&it.output, "[%s]\n", ev.Exit)
		// The entry of its output from before a tool call named it ends
		// too, or it shows "in progress" for ever.
		if u := t.terms[ev.TerminalID]; u != nil {
			u.tool.Status = "completed"
			if u != it {
				fmt.Fprintf(&u.output, "[the rest is in its tool call; %s]\n", ev.Exit)
				u.dirty = true
			}
		}
		t.clockStop(it)
	} else if ev.Chunk != "" {
		t.clockStart(it) // output: the command runs
	}
	if it.output.Len() > maxToolOutput {
		keep := it.output.String()[it.output.Len()-maxToolOutput/2:]
		it.output.Reset()
		it.output.WriteString(keep)
	}
	it.dirty = true
}

// fileAccess records the agent's file read, write or refusal: a write
// shows its diff, folded.
func (t *transcript) fileAccess(ev acpconn.FileAccess) {
	path := sanitize.Line(ev.Path)
	switch ev.Op {
	case "refused":
		if ev.ToolCallID != "" && ev.Attempt == "write" {
			why := "the write to " + path + " was refused: " + sanitize.Line(ev.Reason)
			if it := t.tools[ev.ToolCallID]; it != nil {
				it.refused, it.dirty = why, true
			} else if len(t.refusals) < maxRefusals {
				if t.refusals == nil {
					t.refusals = map[string]string{}
				}
				t.refusals[ev.ToolCallID] = why
			}
		}
		if ev.Mismatch {
			// What was approved against what the agent sent instead.
			tc := acpconn.ToolCall{ID: "fs:" + ev.Path, Title: "refused the agent's write to " + path + ": it differs from the diff you approved (- approved, + sent)", Kind: "edit", Status: "failed",
				Diffs: []acpconn.Diff{{Path: ev.Path, Old: ev.Old, New: ev.New}}}
			t.endStream()
			t.holdDiffs(t.add(&item{kind: kindTool, tool: tc}), 0)
			return
		}
		t.notice(fmt.Sprintf("refused the agent's %s of %s: %s", ev.Attempt, path, sanitize.Line(ev.Reason)), false)
	case "read":
		t.info(say.FileLine(ev))
	case "write":
		what := "wrote"
		if ev.Created {
			what = "created"
		}
		tc := acpconn.ToolCall{ID: "fs:" + ev.Path, Title: "the agent " + what + " " + path, Kind: "edit", Status: "completed"}
		if ev.TooLarge {
			tc.Content = []string{fmt.Sprintf("%d bytes: too large to show as a diff", ev.Bytes)}
		} else {
			tc.Diffs = []acpconn.Diff{{Path: ev.Path, Old: ev.Old, New: ev.New}}
		}
		if ev.ToolCallID != "" {
			t.wroteFor(ev, tc) // the write the agent reports in that call: one entry
			return
		}
		t.endStream()
		t.holdDiffs(t.add(&item{kind: kindTool, tool: tc}), 0)
	}
}
