package fullscreen

import (
	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// wroteFor shows a write elicit did under a tool call's permission on that
// call's entry, as a line under its head, not as a second entry with the
// same diff beside it. When the agent named the call only in its
// permission so far (gemini-cli reports it after the write), the entry is
// made now, under the call's id, and the agent's report merges into it.
func (t *transcript) wroteFor(ev acpconn.FileAccess, tc acpconn.ToolCall) {
	it := t.tools[ev.ToolCallID]
	if it == nil {
		tc.ID = ev.ToolCallID
		t.endStream()
		it = t.add(&item{kind: kindTool, tool: tc, refused: t.refusals[tc.ID]})
		delete(t.refusals, tc.ID)
		t.tools[tc.ID] = it
		t.holdDiffs(it, 0)
	}
	it.wrote, it.dirty = say.FileLine(ev), true
}
