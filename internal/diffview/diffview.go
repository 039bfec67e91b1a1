// Package diffview draws a tool call's file edit (ACP tool call content
// {"type":"diff","path","oldText","newText"}) as coloured unified hunks:
// line numbers, three lines of context, syntax colour by file extension,
// and a "⋯ N more lines" marker wherever anything is folded.
//
//	lines, folded := diffview.Render(diffview.Diff{Path: p, Old: old, New: new}, 80, 20, false, th)
//
// The diff is computed by go-udiff (the library crush uses); colour comes
// from chroma. Every line from the agent goes through package sanitize
// before it is styled: controls are shown as visible markers (␀ ␈ ␍ ␛,
// <U+202E>), never dropped, since the diff is what the user approves.
// Spoken is the same diff as plain lines for a screen reader.
package diffview

import (
	"fmt"
	"strconv"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/theme"
)

// Context is how many unchanged lines are shown around each change.
const Context = 3

// tabWidth is how many spaces a tab becomes.
const tabWidth = 4

// MaxSyntaxLines is how many lines get syntax colour in one render;
// beyond it (an expanded large file) lines are coloured by kind only:
// chroma's lexers cost some 50µs a line, a second for 20,000 lines.
const MaxSyntaxLines = 2000

// Diff is one file edit: its path and its text before and after. An empty
// Old is a new file.
type Diff struct {
	Path, Old, New string
}

// rowKind is what a row of the view shows.
type rowKind int

const (
	rowTitle rowKind = iota
	rowMarker
	rowHeader
	rowLine
)

// row is one entry of the view before it is drawn: cheap to build for
// every hunk, drawn only when it is shown.
type row struct {
	what         rowKind
	k            kind
	oldNo, newNo int
	text         string
	src          int // lines of the file (or the diff) it stands for
}

// Render draws d for width columns. Collapsed (expanded false), it shows
// each change with Context lines around it; expanded, the whole file.
// With maxLines > 0 it draws at most that many rows, the last one then
// saying how many lines are left. folded counts the lines of the file not
// shown, folded between hunks or cut by maxLines: 0 means everything is
// on screen. Long lines wrap under their line numbers; nothing is clipped.
func Render(d Diff, width, maxLines int, expanded bool, th *theme.Theme) (lines []string, folded int) {
	if th == nil {
		th = theme.New(true, true)
	}
	rows, nw := build(d, expanded)
	width = max(width, 20)
	p := newPainter(d.Path, th)
	syntax := len(rows) <= MaxSyntaxLines || maxLines > 0 && maxLines <= MaxSyntaxLines
	var out []string
	for i, r := range rows {
		drawn := draw(r, nw, width, p, th, syntax)
		limit := maxLines - 1 // one row is kept for the marker while rows follow
		if i == len(rows)-1 {
			limit = maxLines
		}
		if maxLines > 0 && len(out)+len(drawn) > limit {
			left := 0
			for _, rest := range rows[i:] {
				left += rest.src
			}
			if room := maxLines - 1 - len(out); room > 0 && r.what == rowLine && len(drawn) > room {
				out = append(out, drawn[:room]...) // the start of a long line
			}
			folded += left
			out = append(out, marker(left, th))
			return out, folded
		}
		if r.what == rowMarker || r.what == rowHeader {
			folded += r.src
		}
		out = append(out, drawn...)
	}
	return out, folded
}

// build turns d into rows: a title, then each hunk's header and lines,
// with a marker for the unchanged lines between them. nw is the width of
// the line numbers.
func build(d Diff, expanded bool) ([]row, int) {
	oldN, newN := countLines(d.Old), countLines(d.New)
	ctx := Context
	if expanded {
		ctx = oldN + newN + 1 // one hunk: the whole file
	}
	edits := udiff.Lines(d.Old, d.New)
	u, err := udiff.ToUnifiedDiff("a", "b", d.Old, edits, ctx)
	rows := []row{{what: rowTitle, text: title(d, u, err)}}
	if err != nil || len(u.Hunks) == 0 {
		return rows, 1
	}
	done := 0 // old lines already accounted for
	for _, h := range u.Hunks {
		// The lines folded above a hunk are counted on its header row, as
		// a code review's "expand up" control is: one row less to scroll.
		rows = append(rows, row{what: rowHeader, text: header(h), src: max(0, h.FromLine-1-done)})
		o, n := h.FromLine, h.ToLine
		for _, l := range h.Lines {
			r := row{what: rowLine, k: kEqual, text: l.Content, src: 1}
			switch l.Kind {
			case udiff.Delete:
				r.k, r.oldNo, o = kDelete, o, o+1
			case udiff.Insert:
				r.k, r.newNo, n = kInsert, n, n+1
			default:
				r.oldNo, r.newNo, o, n = o, n, o+1, n+1
			}
			rows = append(rows, r)
		}
		done = o - 1
	}
	if gap := oldN - done; gap > 0 {
		rows = append(rows, row{what: rowMarker, src: gap})
	}
	return rows, len(strconv.Itoa(max(oldN, newN)))
}

// title is the first row: the path, what changed, and line endings.
func title(d Diff, u udiff.UnifiedDiff, err error) string {
	path := sanitize.DiffLine(d.Path)
	if err != nil {
		return path + " · the diff could not be computed: " + sanitize.Line(err.Error())
	}
	add, del := 0, 0
	for _, h := range u.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Insert:
				add++
			case udiff.Delete:
				del++
			}
		}
	}
	var notes []string
	switch {
	case d.Old == "" && d.New != "":
		notes = append(notes, "new file")
	case d.Old != "" && d.New == "":
		notes = append(notes, "emptied")
	case len(u.Hunks) == 0:
		notes = append(notes, "no changes")
	}
	if len(u.Hunks) > 0 {
		notes = append(notes, fmt.Sprintf("+%d -%d", add, del))
	}
	if o, n := eol(d.Old), eol(d.New); o != "" && n != "" && o != n {
		notes = append(notes, "line endings "+o+" → "+n)
	}
	return path + " · " + strings.Join(notes, " · ")
}

// eol names the text's line ending, "" when it has no line break.
func eol(s string) string {
	i := strings.IndexByte(s, '\n')
	switch {
	case i < 0:
		return ""
	case i > 0 && s[i-1] == '\r':
		return "CRLF"
	}
	return "LF"
}

// header is the hunk's "@@ -30,7 +30,7 @@" line, as diff -u writes it.
func header(h *udiff.Hunk) string {
	from, to := 0, 0
	for _, l := range h.Lines {
		switch l.Kind {
		case udiff.Delete:
			from++
		case udiff.Insert:
			to++
		default:
			from++
			to++
		}
	}
	return "@@ -" + span(h.FromLine, from) + " +" + span(h.ToLine, to) + " @@"
}

func span(start, n int) string {
	if n == 0 {
		return strconv.Itoa(start-1) + ",0"
	}
	if n == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

func marker(n int, th *theme.Theme) string {
	s := "⋯ " + strconv.Itoa(n) + " more lines"
	if n == 1 {
		s = "⋯ 1 more line"
	}
	return th.Muted.Render(s)
}

// draw renders one row for width, wrapped.
func draw(r row, nw, width int, p *painter, th *theme.Theme, syntax bool) []string {
	switch r.what {
	case rowTitle:
		parts := strings.Split(ansi.Wrap(r.text, width, " "), "\n")
		for i, part := range parts {
			parts[i] = th.Bold.Render(part)
		}
		return parts
	case rowMarker:
		return []string{marker(r.src, th)}
	case rowHeader:
		if r.src > 0 {
			return []string{th.Secondary.Render(r.text) + "  " + marker(r.src, th)}
		}
		return []string{th.Secondary.Render(r.text)}
	}
	sign, num := " ", th.Muted
	switch r.k {
	case kDelete:
		sign, num = "-", th.Danger.UnsetBold()
	case kInsert:
		sign, num = "+", th.Success
	}
	gutter := num.Render(fmt.Sprintf("%*s %*s %s ", nw, lineNo(r.oldNo), nw, lineNo(r.newNo), sign))
	blank := strings.Repeat(" ", 2*nw+4)
	cw := max(width-(2*nw+4), 8)
	text := clean(r.text)
	parts := strings.Split(ansi.Hardwrap(p.paint(text, r.k, syntax), cw, true), "\n")
	out := make([]string, len(parts))
	for i, part := range parts {
		g := gutter
		if i > 0 {
			g = blank
		}
		out[i] = g + part
		if r.k != kEqual {
			out[i] += p.pad(cw-ansi.StringWidth(part), r.k)
		}
	}
	return out
}

// clean is one line of the file made safe to draw: its line break (LF or
// CRLF) gone, tabs expanded, and every other control shown as a visible
// marker (sanitize.Diff): a diff to approve shows what will be written,
// so a NUL, a backspace or a lone CR is never silently dropped.
func clean(s string) string {
	if t, ok := strings.CutSuffix(s, "\n"); ok {
		s = strings.TrimSuffix(t, "\r")
	}
	if strings.IndexByte(s, '\t') >= 0 {
		s = strings.ReplaceAll(s, "\t", strings.Repeat(" ", tabWidth))
	}
	return sanitize.Diff(s)
}

func lineNo(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}
