package fullscreen

import (
	"strings"
	"time"
)

// gap is the blank line between entries and between blocks.
var gap = []string{""}

// walker collects rendered pieces from the bottom of the transcript up,
// until it has the lines a view needs.
type walker struct {
	pieces [][]string // bottom first
	total  int
	need   int
}

func (w *walker) add(lines []string) {
	w.pieces = append(w.pieces, lines)
	w.total += len(lines)
}

func (w *walker) full() bool { return w.total >= w.need }

// view returns the last height lines of the transcript, scrolled up by
// offset lines.
func (t *transcript) view(width, height, offset int) (string, int) {
	return t.viewHold(width, height, offset, false, false)
}

// viewHold is view with streaming entries held at their last render
// (inside a flush interval). It renders only what it shows, walking back
// from the end block by block, so its cost follows the screen's size, not
// the transcript's or the message's length; renders it no longer shows
// are dropped.
func (t *transcript) viewHold(width, height, offset int, hold, busy bool) (string, int) {
	if t.md != t.lastMD || t.th != t.lastTH {
		t.epoch++
		t.lastMD, t.lastTH = t.md, t.th
	}
	t.gen++
	t.touched = 0
	w := &walker{need: height + offset}
	i := len(t.items) - 1
	for ; i >= 0 && !w.full(); i-- {
		w.add(gap)
		it := t.items[i]
		if it.kind == kindAgent {
			t.walkBody(w, it, width, hold, busy)
		} else {
			w.add(t.renderItem(it, width, hold))
		}
	}
	t.sweep()
	if i < 0 && offset > max(0, w.total-height) { // the top is in reach
		offset = max(0, w.total-height)
	}
	end := w.total - offset
	start := max(0, end-height)
	out := make([]string, 0, height)
	for range height - (end - start) {
		out = append(out, "")
	}
	pos := w.total // top-down index of the first line of the next piece
	for _, p := range w.pieces {
		pos -= len(p)
	}
	for k := len(w.pieces) - 1; k >= 0; k-- {
		p := w.pieces[k]
		lo, hi := max(start, pos), min(end, pos+len(p))
		if lo < hi {
			out = append(out, p[lo-pos:hi-pos]...)
		}
		pos += len(p)
	}
	return strings.Join(out, "\n"), offset
}

// renderItem returns a short entry's lines for width, from cache when it
// can. While hold is set a streaming entry keeps its last render.
func (t *transcript) renderItem(it *item, width int, hold bool) []string {
	c := &it.cache
	if c.valid(width, t.epoch) && (!it.dirty || hold && it.streaming) {
		t.touch(c)
		return c.lines
	}
	it.dirty = false
	return t.store(c, t.draw(it, width), width, 0)
}

// fastBytes is the inflow between two frames past which a streaming
// message is drawn in its fast form: blocks and tail that appear in such
// a frame are wrapped as plain text (cheaper than markdown by far), and
// get their markdown render on the first slower frame, or when the stream
// ends, if they are still in sight. At 4 KiB a frame (120 KB/s) the text
// goes by faster than anyone reads it; an LLM streams about 1 KB/s.
const fastBytes = 4 * 1024

// busyFor is how long after the agent's last events it counts as busy:
// a few frames of a flush interval, well under what a reader notices.
const busyFor = 150 * time.Millisecond

// walkBody adds an agent message's blocks, the last first, until the view
// has its lines. While hold is set a streaming message keeps the pieces
// of its last walk whole (blocks settled since then included).
func (t *transcript) walkBody(w *walker, it *item, width int, hold, busy bool) {
	b := it.body
	need := w.need - w.total
	// While the agent is busy the pieces are reused too when nothing
	// arrived since they were made: a frame drawn for a key mid-flood would
	// otherwise render every block in sight as markdown (0 new bytes is not
	// a fast frame), 50 to 80 ms before the key shows. Once the agent is
	// quiet, the next frame gives the plain pieces their markdown.
	same := b.held != nil && b.heldWidth == width && b.heldEpoch == t.epoch && need <= b.heldNeed
	if it.streaming && same && (hold || busy && b.size == b.heldSize) {
		for _, p := range b.held {
			w.add(p)
		}
		return
	}
	first := len(w.pieces)
	t.walkBodyNow(w, it, width)
	b.held = append(b.held[:0], w.pieces[first:]...)
	b.heldWidth, b.heldEpoch, b.heldNeed, b.heldSize = width, t.epoch, need, b.size
}

func (t *transcript) walkBodyNow(w *walker, it *item, width int) {
	b := it.body
	if b.empty() {
		w.add([]string{t.th.Muted.Render("  …")})
		return
	}
	fast := it.streaming && b.size-b.shownSize > fastBytes
	b.shownSize = b.size
	if strings.TrimSpace(b.tail.String()) != "" {
		w.add(t.renderTail(b, width, fast, w.need-w.total))
		if len(b.blocks) > 0 && !b.tailCont {
			w.add(gap)
		}
	}
	for j := len(b.blocks) - 1; j >= 0 && !w.full(); j-- {
		bl := b.blocks[j]
		w.add(t.renderBlock(bl, width, fast))
		if j > 0 && !bl.cont {
			w.add(gap)
		}
	}
}

// renderBlock returns a settled block's lines for width: rendered once
// per width while it stays in sight (twice when it first appeared in a
// fast frame: plain, then markdown).
func (t *transcript) renderBlock(bl *block, width int, fast bool) []string {
	c := &bl.cache
	if c.valid(width, t.epoch) && (!c.cheap || fast) {
		t.touch(c)
		return c.lines
	}
	if fast {
		return t.storeCheap(c, t.plainSrc(bl.src, width), width, 0)
	}
	return t.store(c, t.renderSrc(bl.src, width), width, 0)
}

// plainSrc is markdown source wrapped as plain text, with the margin
// glamour gives it: the fast form of a block.
func (t *transcript) plainSrc(src string, width int) []string {
	return indent(plainLines(src, width-2), "  ")
}

// renderSrc renders markdown source; a very long piece (one line longer
// than plainLimit) is wrapped as plain text instead.
func (t *transcript) renderSrc(src string, width int) []string {
	if len(src) > plainLimit {
		return indent(plainLines(src, width-2), "  ")
	}
	return t.md.render(src, width)
}

// renderTail renders the streaming tail: as markdown up to
// tailMarkdownLimit (it is at most a block long unless it is one long
// line), plain in a fast frame, else the last need lines of an
// incremental plain wrap.
func (t *transcript) renderTail(b *mdBody, width int, fast bool, need int) []string {
	c := &b.tailCache
	if c.valid(width, t.epoch) && c.version == b.tailVer && (!c.cheap || fast) {
		t.touch(c)
		return c.lines
	}
	src := b.tail.String()
	var lines []string
	switch {
	case fast && len(src) <= tailMarkdownLimit:
		return t.storeCheap(c, t.plainSrc(src, width), width, b.tailVer)
	case len(src) <= tailMarkdownLimit:
		lines = t.md.render(src, width)
	default:
		lines = b.tailWrap.wrapLast(src, max(10, width-4), max(1, need))
		for i, l := range lines {
			lines[i] = "  " + l
		}
	}
	return t.store(c, lines, width, b.tailVer)
}
