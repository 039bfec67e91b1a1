// Package dialog is the one scrolling frame every dialog is drawn in: the
// full screen's forms, review, URL consent, permission, settings, pending
// flows and sign-in. Whatever the size, a Frame keeps its head (who asks,
// the title), its foot (a dialog's choices) and its key line in view, and
// scrolls the body between them:
//
//	f := dialog.New(th)
//	f.Head = []string{"Settings · elicit"}
//	f.Body, f.Keys = entries, "↑/↓ move · esc close"
//	f.EnsureVisible(cursor)
//	s := f.View(width, height) // bordered; Lines draws it without the border
package dialog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/theme"
)

// minBody is the fewest body rows a frame keeps: one row between the
// "↑ N more" and "↓ N more" markers. Head lines past Pin go into the body
// (and scroll) before the body gets fewer.
const minBody = 3

// Frame lays a dialog out in a fixed size. Lines may hold the caller's own
// styling (agent text must be sanitized first); long lines wrap, nothing
// is cut. Scroll state is kept in body rows after wrapping; the size is the
// one of the last view.
type Frame struct {
	// Head is drawn on top. Its first Pin lines (who asks, the title) are
	// always in view; the others stay fixed while the body keeps minBody
	// rows, and otherwise scroll at the top of the body (blank ones are
	// dropped instead).
	Head []string
	Pin  int
	Body []string // scrolls; a line may hold several rows ("\n")
	Foot []string // fixed rows above the key line (a dialog's choices)
	Keys string   // the key line, styled; it wraps, never cut
	// Tight drops the blank rows that otherwise part head, body, foot
	// and keys when there is room.
	Tight bool
	// MinBody is the fewest rows the body keeps (markers included)
	// before unpinned head lines scroll with it; 0 means 3, one row
	// between both markers.
	MinBody int

	th     *theme.Theme
	offset int // first body row shown
	want   int // body line to bring into view at the next view; -1 none
	page   int // a page of body rows at the last view
}

// New returns an empty frame drawn with th.
func New(th *theme.Theme) *Frame { return &Frame{th: th, want: -1} }

// ScrollBy moves the body n rows (negative: up).
func (f *Frame) ScrollBy(n int) { f.offset = max(0, f.offset+n) }

// Up scrolls one row up.
func (f *Frame) Up() { f.ScrollBy(-1) }

// Down scrolls one row down.
func (f *Frame) Down() { f.ScrollBy(1) }

// PageUp scrolls a page up.
func (f *Frame) PageUp() { f.ScrollBy(-max(1, f.page)) }

// PageDown scrolls a page down.
func (f *Frame) PageDown() { f.ScrollBy(max(1, f.page)) }

// Home scrolls to the top.
func (f *Frame) Home() { f.offset = 0 }

// End scrolls to the bottom (clamped at the next view).
func (f *Frame) End() { f.offset = 1 << 30 }

// EnsureVisible brings body line i (the cursor's) into view at the next
// view, whatever the size then.
func (f *Frame) EnsureVisible(i int) { f.want = i }

// ScrollKey handles the scrolling keys (pgup/pgdown, ctrl+b/ctrl+f,
// home/end) and reports whether k was one.
func (f *Frame) ScrollKey(k string) bool {
	switch k {
	case "pgup", "ctrl+b":
		f.PageUp()
	case "pgdown", "ctrl+f":
		f.PageDown()
	case "home":
		f.Home()
	case "end":
		f.End()
	default:
		return false
	}
	return true
}

// Offset is the first body row shown at the last view.
func (f *Frame) Offset() int { return f.offset }

// WrapRows wraps lines to width; start[i] is the first row of line i and
// start[len(lines)] the row count.
func WrapRows(lines []string, width int) (rows []string, start []int) {
	for _, l := range lines {
		start = append(start, len(rows))
		rows = append(rows, strings.Split(ansi.Wrap(l, width, " -"), "\n")...)
	}
	return rows, append(start, len(rows))
}

// View draws the frame in width×height cells, rounded border included.
// A height of 0 or less means no limit.
func (f *Frame) View(width, height int) string {
	h := height - 2
	if height <= 0 {
		h = 0
	}
	return f.th.Modal.Width(width).Render(strings.Join(f.Lines(max(width-4, 10), h), "\n"))
}

// Lines draws the frame without a border: at most height rows (no limit
// when height is 0 or less) of at most width cells.
func (f *Frame) Lines(width, height int) []string {
	pin := min(max(f.Pin, 0), len(f.Head))
	head, _ := WrapRows(f.Head[:pin], width)
	foot, _ := WrapRows(f.Foot, width)
	keys, _ := WrapRows([]string{f.Keys}, width)
	if f.Keys == "" {
		keys = nil
	}
	// The unpinned head lines stay fixed while they leave the body room.
	body := f.Body
	want := f.want
	fixed := len(head) + len(foot) + len(keys)
	least := max(f.MinBody, minBody)
	rest := f.Head[pin:]
	if all, _ := WrapRows(rest, width); height > 0 && fixed+len(all)+least > height {
		// Short of room: blank rows go first, and do not scroll.
		rest = slices.DeleteFunc(slices.Clone(rest), func(s string) bool { return s == "" })
	}
	for i := range rest {
		r, _ := WrapRows(rest[i:i+1], width)
		if height > 0 && fixed+len(r)+least > height {
			body = append(slices.Clone(rest[i:]), body...)
			if want >= 0 {
				want += len(rest) - i
			}
			break
		}
		head = append(head, r...)
		fixed += len(r)
	}
	rows, start := WrapRows(body, width)

	gaps := b2i(len(head) > 0) + b2i(len(foot) > 0) + b2i(len(keys) > 0)
	avail := height - fixed
	sep := !f.Tight && (height <= 0 || avail-gaps >= len(rows) || avail-gaps >= 12)
	if sep {
		avail -= gaps
	}
	avail = max(avail, minBody)

	var shown []string
	if height <= 0 || len(rows) <= avail {
		f.offset, f.page, f.want = 0, len(rows), -1
		shown = rows
	} else {
		f.place(len(rows), avail, start, want)
		top := f.offset > 0
		space := avail - b2i(top)
		bottom := f.offset+space < len(rows)
		space = max(space-b2i(bottom), 1)
		f.page = max(1, avail-2) // the rows between both markers: a page up undoes a page down
		if top {
			shown = append(shown, f.th.Muted.Render(fmt.Sprintf("↑ %d more", f.offset)))
		}
		end := min(f.offset+space, len(rows))
		shown = append(shown, rows[f.offset:end]...)
		if bottom {
			shown = append(shown, f.th.Muted.Render(fmt.Sprintf("↓ %d more", len(rows)-end)))
		}
	}

	out := append([]string(nil), head...)
	gap := func() {
		if sep && len(out) > 0 {
			out = append(out, "")
		}
	}
	if len(shown) > 0 {
		gap()
		out = append(out, shown...)
	}
	if len(foot) > 0 {
		gap()
		out = append(out, foot...)
	}
	if len(keys) > 0 {
		gap()
		out = append(out, keys...)
	}
	return out
}

// place clamps the offset for n body rows in avail rows (markers
// included) and brings the wanted line into view.
func (f *Frame) place(n, avail int, start []int, want int) {
	maxOff := max(0, n-(avail-1)) // at the end only "↑ N more" is shown
	if want >= 0 && want < len(start)-1 {
		s, e := start[want], start[want+1]
		inner := max(1, avail-2) // rows between both markers
		switch {
		case e <= avail-1: // in view from the top (only "↓ N more" shown)
			f.offset = 0
		case s < f.offset:
			f.offset = s
		case e > f.offset+inner: // its end at the bottom; its top if it is taller
			f.offset = max(0, min(s, e-inner))
		}
	}
	f.want = -1
	f.offset = min(max(f.offset, 0), maxOff)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
