package diffview

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// Spoken is d as plain lines for a screen reader (the accessible
// session's permission prompt): a first line with the path and what
// changed, then each hunk as "at line N:" and its lines, each led by
// "added:", "removed:" or "unchanged:". Controls are shown as markers,
// as in Render. With maxLines > 0 at most that many lines are given, the
// last one saying how many were left out.
func Spoken(d Diff, maxLines int) []string {
	edits := udiff.Lines(d.Old, d.New)
	u, err := udiff.ToUnifiedDiff("a", "b", d.Old, edits, Context)
	path := sanitize.DiffLine(d.Path)
	if err != nil {
		return []string{path + ": the diff could not be computed: " + sanitize.Line(err.Error())}
	}
	add, del := 0, 0
	var body []string
	for _, h := range u.Hunks {
		body = append(body, fmt.Sprintf("at line %d:", max(h.ToLine, 1)))
		for _, l := range h.Lines {
			word := "unchanged"
			switch l.Kind {
			case udiff.Insert:
				word = "added"
				add++
			case udiff.Delete:
				word = "removed"
				del++
			}
			text := clean(l.Content)
			if strings.TrimSpace(text) == "" {
				text = "(empty line)"
			}
			body = append(body, word+": "+text)
		}
	}
	var head string
	switch {
	case len(u.Hunks) == 0:
		return []string{path + ": no changes"}
	case d.Old == "" && d.New != "":
		head = fmt.Sprintf("%s: new file, %s", path, plural(add, "line", "lines"))
	default:
		head = fmt.Sprintf("%s: %s added, %d removed", path, plural(add, "line", "lines"), del)
	}
	out := append([]string{head}, body...)
	if maxLines > 0 && len(out) > maxLines {
		left := len(out) - (maxLines - 1)
		out = append(out[:maxLines-1], fmt.Sprintf("(%s of the diff not read out)", plural(left, "more line", "more lines")))
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
