package fullscreen

import (
	"strings"
	"time"
)

// gap is the blank line between entries and between blocks.
var gap = []string{""}

// piece is a run of lines the walk collected: an entry, a block, a gap.
// A piece all below the view keeps only its count (lines is nil).
type piece struct {
	lines []string
	n     int
}

// walker collects rendered pieces from the bottom of the transcript up,
// until it has the lines a view needs.
type walker struct {
	pieces []piece // bottom first
	total  int
	need   int // lines from the bottom to the view's top
	below  int // lines under the view (the scroll offset)
}

func (w *walker) add(lines []string) {
	w.pieces = append(w.pieces, piece{lines: lines, n: len(lines)})
	w.total += len(lines)
}

// skip counts n lines that are all below the view, without their text.
func (w *walker) skip(n int) {
	w.pieces = append(w.pieces, piece{n: n})
	w.total += n
}

// under reports whether n more lines would all be below the view.
func (w *walker) under(n int) bool { return w.total+n <= w.below }

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
// are dropped. Scrolled up, what lies below the view is counted, not
// kept: a block's line count outlives its render, so a view far back in
// a long session holds the renders of what it shows and no more.
func (t *transcript) viewHold(width, height, offset int, hold, busy bool) (string, int) {
	return t.walkView(width, height, offset, hold, busy, true)
}

func (t *transcript) walkView(width, height, offset int, hold, busy, again bool) (string, int) {
	if t.md != t.lastMD || t.th != t.lastTH {
		t.epoch++
		t.lastMD, t.lastTH = t.md, t.th
	}
	if width != t.layoutWidth || t.epoch != t.layoutEpoch {
		t.layout++
		t.layoutWidth, t.layoutEpoch = width, t.epoch
	}
	t.gen++
	t.touched = 0
	w := &walker{need: height + offset, below: offset}
	i := len(t.items) - 1
	for ; i >= 0 && !w.full(); i-- {
		if i == len(t.items)-1 || !t.items[i+1].joined {
			w.add(gap)
		}
		it := t.items[i]
		if it.kind == kindAgent {
			t.walkBody(w, it, width, hold, busy)
		} else {
			t.itemPiece(w, it, width, hold)
		}
	}
	t.sweep()
	if i < 0 && offset > max(0, w.total-height) { // the top is in reach
		offset = max(0, w.total-height)
		if again { // what was counted as below the view is in it now
			return t.walkView(width, height, offset, hold, busy, false)
		}
	}
	end := w.total - offset
	start := max(0, end-height)
	out := make([]string, 0, height)
	for range height - (end - start) {
		out = append(out, "")
	}
	pos := 0 // top-down index of the first line of the next piece
	for k := len(w.pieces) - 1; k >= 0; k-- {
		p := w.pieces[k]
		lo, hi := max(start, pos), min(end, pos+p.n)
		switch {
		case lo >= hi:
		case p.lines == nil: // counted as below the view; not reached after a second walk
			for range hi - lo {
				out = append(out, "")
			}
		default:
			out = append(out, p.lines[lo-pos:hi-pos]...)
		}
		pos += p.n
	}
	return strings.Join(out, "\n"), offset
}

// itemPiece adds an entry other than an agent message: only its line
// count when it is below the view and known.
func (t *transcript) itemPiece(w *walker, it *item, width int, hold bool) {
	if !it.dirty && !it.streaming && it.layout == t.layout && w.under(it.count) {
		w.skip(it.count)
		return
	}
	lines := t.renderItem(it, width, hold)
	it.count, it.layout = len(lines), t.layout
	w.add(lines)
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
	under := max(0, w.below-w.total)
	same := b.held != nil && b.heldWidth == width && b.heldEpoch == t.epoch && need <= b.heldNeed && under == b.heldUnder
	if it.streaming && same && (hold || busy && b.size == b.heldSize) {
		for _, p := range b.held {
			w.pieces = append(w.pieces, p)
			w.total += p.n
		}
		return
	}
	first := len(w.pieces)
	t.walkBodyNow(w, it, width)
	if !it.streaming { // a finished message keeps no pieces: its renders go when out of sight
		b.held = nil
		return
	}
	b.held = append(b.held[:0], w.pieces[first:]...)
	b.heldWidth, b.heldEpoch, b.heldNeed, b.heldSize, b.heldUnder = width, t.epoch, need, b.size, under
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
		t.blockPiece(w, b, bl, width, fast)
		if j > 0 && !bl.cont {
			w.add(gap)
		}
	}
}

// blockPiece adds a settled block: rendered once per width while it
// stays in sight (twice when it first appeared in a fast frame: plain,
// then markdown); below the view, only its line count, rendered to count
// it when that is not known and not kept.
func (t *transcript) blockPiece(w *walker, b *mdBody, bl *block, width int, fast bool) {
	if bl.layout == t.layout && (!bl.cheap || fast) && w.under(int(bl.count)) {
		w.skip(int(bl.count))
		return
	}
	if c := bl.cache; c != nil && c.valid(width, t.epoch) && (!c.cheap || fast) {
		t.touch(c)
		bl.count, bl.layout, bl.cheap = int32(len(c.lines)), t.layout, c.cheap
		w.add(c.lines)
		return
	}
	var lines []string
	if fast {
		lines = t.plainSrc(b.src(bl), width)
	} else {
		lines = t.renderSrc(b.src(bl), width)
	}
	bl.count, bl.layout, bl.cheap = int32(len(lines)), t.layout, fast
	if w.under(len(lines)) {
		w.skip(len(lines))
		return
	}
	if bl.cache == nil {
		bl.cache = &renderCache{}
		bl.cache.slot = &bl.cache
	}
	if fast {
		t.storeCheap(bl.cache, lines, width, 0)
	} else {
		t.store(bl.cache, lines, width, 0)
	}
	w.add(lines)
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
