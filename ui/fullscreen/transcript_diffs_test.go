package fullscreen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/theme"
)

// TestDiffsHeldAreBounded: an agent that writes (or reports diffs for) as
// many files as it likes cannot make the transcript hold more than
// maxDiffHold of diff text; the oldest entries say their diff was let go,
// the newest keep theirs.
func TestDiffsHeldAreBounded(t *testing.T) {
	tr := newTranscript(nil, theme.New(true, true))
	big := strings.Repeat("x", acpconn.MaxDiffBytes)
	n := 2 * maxDiffHold / (2 * acpconn.MaxDiffBytes) // twice the bound
	for i := range n {
		if i%2 == 0 {
			tr.fileAccess(acpconn.FileAccess{Op: "write", Path: fmt.Sprintf("/r/f%d", i), Old: big, New: big + "y"})
		} else {
			tr.toolCall(acpconn.ToolCall{ID: fmt.Sprint("t", i), Title: "edit", Diffs: []acpconn.Diff{{Path: "/r/g", Old: big, New: big + "z"}}})
		}
	}
	if tr.diffs.bytes > maxDiffHold {
		t.Fatalf("the transcript holds %d bytes of diffs, over %d", tr.diffs.bytes, maxDiffHold)
	}
	held := 0
	for _, it := range tr.items {
		held += diffSize(it.tool.Diffs)
	}
	if held != tr.diffs.bytes {
		t.Errorf("accounted %d bytes, holds %d", tr.diffs.bytes, held)
	}
	first, last := tr.items[0], tr.items[len(tr.items)-1]
	if first.tool.Diffs != nil || len(first.tool.Content) == 0 || !strings.Contains(first.tool.Content[0], "no longer kept") {
		t.Errorf("the oldest entry: diffs %d, content %q", len(first.tool.Diffs), first.tool.Content)
	}
	if len(last.tool.Diffs) != 1 {
		t.Error("the newest entry lost its diff")
	}
}
