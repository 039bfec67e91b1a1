package fullscreen

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// tailMarkdownLimit is the largest streaming tail rendered as markdown at
// each flush. A tail is cut into blocks at line ends past blockLimit, so
// only one line longer than this is wrapped as plain text, incrementally,
// until the message ends.
const tailMarkdownLimit = 8 * 1024

// wrapState word-wraps a growing plain text, wrapping only what was added
// since the last call: finished lines are kept, and only the line being
// filled and the word being typed are redone.
type wrapState struct {
	width    int
	consumed int      // bytes of the text placed in lines and cur
	lines    []string // finished lines
	cur      strings.Builder
	curW     int
}

// wrap returns the wrapped lines of src, which must only have grown since
// the previous call (with the same width).
func (w *wrapState) wrap(src string, width int) []string {
	return w.wrapLast(src, width, -1)
}

// wrapLast is wrap returning only the last n lines (all when n < 0), so a
// frame copies what it shows, not every line.
func (w *wrapState) wrapLast(src string, width, n int) []string {
	if w.width != width || w.consumed > len(src) {
		*w = wrapState{width: width}
	}
	if end := strings.LastIndexAny(src, " \n\t"); end >= w.consumed {
		w.place(src[w.consumed : end+1])
		w.consumed = end + 1
	}
	done := w.lines
	if n >= 0 && len(done) > n {
		done = done[len(done)-n:]
	}
	out := make([]string, len(done), len(done)+2)
	copy(out, done)
	// The word still being typed is shown but not placed for good.
	cur, curW := w.cur.String(), w.curW
	if partial := src[w.consumed:]; partial != "" {
		pw := ansi.StringWidth(partial)
		switch {
		case curW == 0:
			cur, curW = partial, pw
		case curW+1+pw <= width:
			cur, curW = cur+" "+partial, curW+1+pw
		default:
			out = append(out, cur)
			cur, curW = partial, pw
		}
	}
	if curW > 0 {
		out = append(out, ansi.Hardwrap(cur, width, true))
	}
	return out
}

// place adds complete words (seg ends with white space) to the lines.
func (w *wrapState) place(seg string) {
	start := 0
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if c != ' ' && c != '\n' && c != '\t' {
			continue
		}
		if i > start {
			w.word(seg[start:i])
		}
		if c == '\n' {
			w.flush()
		}
		start = i + 1
	}
}

func (w *wrapState) word(word string) {
	ww := ansi.StringWidth(word)
	if w.curW > 0 && w.curW+1+ww > w.width {
		w.flush()
	}
	for ww > w.width { // a word wider than the line is broken
		head := ansi.Truncate(word, w.width, "")
		if w.curW > 0 {
			w.flush()
		}
		w.lines = append(w.lines, head)
		word = word[len(head):]
		ww = ansi.StringWidth(word)
	}
	if w.curW > 0 {
		w.cur.WriteByte(' ')
		w.curW++
	}
	w.cur.WriteString(word)
	w.curW += ww
}

func (w *wrapState) flush() {
	w.lines = append(w.lines, w.cur.String())
	w.cur.Reset()
	w.curW = 0
}
