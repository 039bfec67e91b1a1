package line

import (
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/diffview"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// maxSpokenLines is how many lines of one diff are read out; a screen
// reader user is told how many more there are.
const maxSpokenLines = 200

// readDiffs reads a tool call's diffs out, one line each, led by
// "added:", "removed:" or "unchanged:" (diffview.Spoken); a call with no
// diff gets its content, which says what it does.
func (l *lineSession) readDiffs(tc *question.Tool) {
	if tc == nil {
		return
	}
	for _, d := range tc.Diffs {
		d.Path = say.RelPath(l.root(), d.Path)
		for _, s := range diffview.Spoken(diffview.Diff{Path: d.Path, Old: d.Old, New: d.New}, maxSpokenLines) {
			fmt.Fprintln(l.o.Out, "  "+s)
		}
	}
	if len(tc.Diffs) > 0 {
		return
	}
	for _, c := range tc.Content {
		for _, s := range strings.Split(strings.TrimRight(c, "\n"), "\n") {
			fmt.Fprintln(l.o.Out, "  "+s)
		}
	}
}

// mismatch reads out a write refused because it differs from the diff
// the user approved: removed lines are what was approved, added lines
// what the agent sent instead.
func (l *lineSession) mismatch(ev acpconn.FileAccess) {
	fmt.Fprintln(l.o.Out, "  The diff below is the approved text (removed) against what the agent sent (added):")
	for _, s := range diffview.Spoken(diffview.Diff{Path: ev.Path, Old: ev.Old, New: ev.New}, maxSpokenLines) {
		fmt.Fprintln(l.o.Out, "  "+s)
	}
}

// root is the session directory ("" before the agent started).
func (l *lineSession) root() string {
	if l.c == nil {
		return ""
	}
	return l.c.Root()
}
