package fullscreen

import (
	"fmt"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// maxDiffHold bounds the text of the diffs the transcript keeps to draw
// tool calls and file writes: each is up to acpconn.MaxDiffBytes before
// and after, and an agent can send as many as it likes. Past it the
// oldest entries let their diffs go (the view only ever showed a few
// lines of each) and say so.
const maxDiffHold = 16 << 20

// diffHold is the transcript's account of the diff text it keeps.
type diffHold struct {
	bytes int
	items []*item // entries holding diffs, oldest first
}

func diffSize(ds []acpconn.Diff) int {
	n := 0
	for _, d := range ds {
		n += len(d.Old) + len(d.New)
	}
	return n
}

// holdDiffs accounts for it's diffs, which replaced ones of before bytes,
// and lets the oldest go past maxDiffHold (never the newest).
func (t *transcript) holdDiffs(it *item, before int) {
	now := diffSize(it.tool.Diffs)
	t.diffs.bytes += now - before
	if before == 0 && now > 0 {
		t.diffs.items = append(t.diffs.items, it)
	}
	for t.diffs.bytes > maxDiffHold && len(t.diffs.items) > 1 {
		old := t.diffs.items[0]
		t.diffs.items = t.diffs.items[1:]
		if old == it {
			t.diffs.items = append(t.diffs.items, it)
			continue
		}
		t.diffs.bytes -= diffSize(old.tool.Diffs)
		var notes []string
		for _, d := range old.tool.Diffs {
			notes = append(notes, fmt.Sprintf("(the diff of %s, %d bytes before and %d after, is no longer kept: the transcript keeps the last %d MiB of diffs)",
				sanitize.Line(d.Path), len(d.Old), len(d.New), maxDiffHold>>20))
		}
		old.tool.Diffs, old.tool.Content = nil, append(notes, old.tool.Content...)
		old.invalidate()
	}
}
