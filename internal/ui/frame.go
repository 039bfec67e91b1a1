package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/theme"
)

// frame is the one scrolling frame of every dialog. Whatever the size, it
// keeps the title, who asks, the fixed foot (a dialog's choices) and the
// key line visible, and scrolls the body between them, with "↑ N more" and
// "↓ N more" where rows are out of sight. Long lines wrap; nothing is
// clipped. Scroll state is kept in body rows (after wrapping); the size is
// the one of the last view.
type frame struct {
	title, who string
	body       []string // may hold our own styling; agent text sanitized
	foot       []string // fixed rows above the key line (choices)
	keys       string
	th         *theme.Theme

	offset int // first body row shown
	want   int // body line to bring into view at the next view; -1 none
	page   int // a page of body rows at the last view
}

func newFrame(th *theme.Theme) *frame { return &frame{th: th, want: -1} }

// scrollBy moves the body n rows (negative: up).
func (f *frame) scrollBy(n int) { f.offset = max(0, f.offset+n) }

func (f *frame) up()       { f.scrollBy(-1) }
func (f *frame) down()     { f.scrollBy(1) }
func (f *frame) pageUp()   { f.scrollBy(-max(1, f.page)) }
func (f *frame) pageDown() { f.scrollBy(max(1, f.page)) }
func (f *frame) home()     { f.offset = 0 }
func (f *frame) end()      { f.offset = 1 << 30 } // clamped at the next view

// ensureVisible brings body line i (the cursor's) into view at the next
// view, whatever the size then.
func (f *frame) ensureVisible(i int) { f.want = i }

// scrollKey handles the scrolling keys; false for any other key.
func (f *frame) scrollKey(k string) bool {
	switch k {
	case "pgup", "ctrl+b":
		f.pageUp()
	case "pgdown", "ctrl+f":
		f.pageDown()
	case "home":
		f.home()
	case "end":
		f.end()
	default:
		return false
	}
	return true
}

// wrapRows wraps lines to width; start[i] is the first row of line i.
func wrapRows(lines []string, width int) (rows []string, start []int) {
	for _, l := range lines {
		start = append(start, len(rows))
		rows = append(rows, strings.Split(ansi.Wrap(l, width, " -"), "\n")...)
	}
	return rows, append(start, len(rows))
}

// view draws the frame in width×height cells, border included.
func (f *frame) view(width, height int) string {
	th := f.th
	inner := max(width-4, 10)
	headText := th.ModalTitle.Render(f.title)
	if f.who != "" {
		headText += th.Muted.Render(" · " + f.who)
	}
	head, _ := wrapRows([]string{headText}, inner)
	foot, _ := wrapRows(f.foot, inner)
	keys, _ := wrapRows([]string{th.KeyHelp.Render(f.keys)}, inner)
	rows, start := wrapRows(f.body, inner)

	fixed := len(head) + len(foot) + len(keys)
	avail := height - 2 - fixed
	sep := avail-3 >= len(rows)+1 || avail >= 12 // blank rows around the body when there is room
	gaps := 2                                    // under the head, above the keys
	if len(foot) > 0 {
		gaps++ // above the foot
	}
	if sep {
		avail -= gaps
	}
	avail = max(avail, 1)

	var shown []string
	if len(rows) <= avail {
		f.offset, f.page, f.want = 0, len(rows), -1
		shown = rows
	} else {
		f.place(len(rows), avail, start)
		top := f.offset > 0
		space := avail - b2i(top)
		bottom := f.offset+space < len(rows)
		space -= b2i(bottom)
		space = max(space, 1)
		f.page = max(1, avail-2) // the rows between both markers: a page up undoes a page down
		if top {
			shown = append(shown, th.Muted.Render(fmt.Sprintf("↑ %d more", f.offset)))
		}
		end := min(f.offset+space, len(rows))
		shown = append(shown, rows[f.offset:end]...)
		if bottom {
			shown = append(shown, th.Muted.Render(fmt.Sprintf("↓ %d more", len(rows)-end)))
		}
	}

	out := append([]string(nil), head...)
	if sep {
		out = append(out, "")
	}
	out = append(out, shown...)
	if len(foot) > 0 {
		if sep {
			out = append(out, "")
		}
		out = append(out, foot...)
	}
	if sep {
		out = append(out, "")
	}
	out = append(out, keys...)
	return th.Modal.Width(width).Render(strings.Join(out, "\n"))
}

// place clamps the offset for n body rows in avail rows (markers
// included) and brings the wanted line into view.
func (f *frame) place(n, avail int, start []int) {
	maxOff := max(0, n-(avail-1)) // at the end only "↑ N more" is shown
	if f.want >= 0 && f.want < len(start)-1 {
		s, e := start[f.want], start[f.want+1]
		inner := max(1, avail-2) // rows between both markers
		switch {
		case s < f.offset || s == 0:
			f.offset = s
		case e > f.offset+inner:
			f.offset = max(0, e-inner)
		}
		f.want = -1
	}
	f.offset = min(max(f.offset, 0), maxOff)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
