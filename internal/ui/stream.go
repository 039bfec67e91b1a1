package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
)

// tailMarkdownLimit is the largest unsettled tail of a streaming message
// that is rendered as markdown at each flush; a longer one is wrapped as
// plain text, incrementally, until the message is finished.
const tailMarkdownLimit = 8 * 1024

// streamState makes redrawing a streaming message cost what changed, not
// its whole length: blocks that can no longer change (everything up to the
// last blank line outside a code fence) are rendered once and kept; only
// the tail is rendered again, and a very long tail is wrapped
// incrementally. Hand-written: glamour renders whole documents only.
type streamState struct {
	width     int
	stable    []string // rendered lines of the settled blocks
	stableEnd int      // bytes of the text they cover
	wrap      wrapState
}

// finalMsg carries the final markdown render of a long finished message.
type finalMsg struct {
	it    *item
	width int
	lines []string
}

// finalRenders starts the final render of each long message that finished
// since the last Update, off the event loop: glamour takes tens of
// milliseconds on a long reply, and the screen must not stall meanwhile.
func (m *Model) finalRenders() tea.Cmd {
	if len(m.tr.finals) == 0 {
		return nil
	}
	var cmds []tea.Cmd
	width, bg := max(20, m.width), m.bg
	for _, it := range m.tr.finals {
		it, text := it, it.text.String()
		cmds = append(cmds, func() tea.Msg { return finalMsg{it: it, width: width, lines: bg.render(text, width)} })
	}
	m.tr.finals = nil
	return tea.Batch(cmds...)
}

// drawStreaming renders a message that is still streaming.
func (t *transcript) drawStreaming(it *item, width int) []string {
	text := it.text.String()
	st := &it.stream
	if st.width != width {
		*st = streamState{width: width}
	}
	if b := settledBoundary(text, st.stableEnd); b > st.stableEnd {
		block := text[st.stableEnd:b]
		var lines []string
		if len(block) > plainLimit {
			lines = indent(plainLines(block, width-2), "  ")
		} else {
			lines = t.md.render(block, width)
		}
		if len(st.stable) > 0 {
			st.stable = append(st.stable, "")
		}
		st.stable = append(st.stable, lines...)
		st.stableEnd = b
		st.wrap = wrapState{}
	}
	tail := text[st.stableEnd:]
	var tailLines []string
	switch {
	case strings.TrimSpace(tail) == "":
	case len(tail) <= tailMarkdownLimit:
		tailLines = t.md.render(tail, width)
	default:
		tailLines = st.wrap.wrap(tail, max(10, width-4))
	}
	out := make([]string, 0, len(st.stable)+1+len(tailLines))
	out = append(out, st.stable...)
	if len(st.stable) > 0 && len(tailLines) > 0 {
		out = append(out, "")
	}
	for _, l := range tailLines {
		if len(tail) > tailMarkdownLimit {
			l = "  " + l
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return []string{t.th.Muted.Render("  …")}
	}
	return out
}

// settledBoundary returns the end of the last settled block of text after
// from: the byte after the last blank line that is outside a code fence.
// Text before it cannot change however the message goes on. from must be a
// block boundary (outside any fence).
func settledBoundary(text string, from int) int {
	boundary, inFence := from, false
	pos := from
	for pos < len(text) {
		nl := strings.IndexByte(text[pos:], '\n')
		if nl < 0 {
			break // the last line is unfinished
		}
		line := text[pos : pos+nl]
		pos += nl + 1
		trimmed := strings.TrimLeft(line, " ")
		if len(line)-len(trimmed) <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			inFence = !inFence
			continue
		}
		if !inFence && strings.TrimSpace(line) == "" && pos > from+1 {
			boundary = pos
		}
	}
	return boundary
}

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
	if w.width != width || w.consumed > len(src) {
		*w = wrapState{width: width}
	}
	if end := strings.LastIndexAny(src, " \n\t"); end >= w.consumed {
		w.place(src[w.consumed : end+1])
		w.consumed = end + 1
	}
	out := make([]string, len(w.lines), len(w.lines)+2)
	copy(out, w.lines)
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
