package fullscreen

import "strings"

// blockLimit is the size past which a block with no blank line in it is
// split at the next line end, so a long reply (an agent's 60-byte lines,
// a long list, a long code block) settles into blocks as it streams.
const blockLimit = 2048

// tableLimit is the size past which a table is split after all: a table
// row is not a split point below it (the rows after a split would lose
// their header).
const tableLimit = 8 * blockLimit

// block is a settled piece of an agent message: its markdown source,
// which can no longer change however the message goes on, kept in the
// transcript's text log (it may be in memory or in the spool), and its
// render for one width while one is kept. It stays small (32 bytes): a
// long session holds one for every 2 KB or so of text it was sent.
type block struct {
	off   int64 // where its source is in the log
	size  int32 // the source's length
	count int32 // its render's line count in the layout layout names
	// layout is the transcript's layout (width and style) count is for
	// (0: none); cheap says count is the fast form's.
	layout uint32
	cheap  bool
	cont   bool // follows the previous block with no blank line between
	// pre and post are the bytes of fence lines a split inside a code
	// block added to the source (the reopening line at its start, the
	// closing one at its end), which the agent did not send.
	pre, post uint8
	cache     *renderCache // its render, while a view keeps it (sweep drops it)
}

// maxFenceLine is the longest fence line a split inside a code block
// repeats (block.pre); a code block opened by a longer one is not split.
const maxFenceLine = 255

// mdBody is an agent message's text as settled blocks and an unsettled
// tail. The text is held once: each block's bytes are in the log and the
// tail holds the rest. Appending costs the length of what was appended
// (each byte is scanned once for line ends), not the length of the
// message. Hand-written: glamour and goldmark parse whole documents only.
type mdBody struct {
	log    *textLog // the transcript's
	blocks []*block
	tail   strings.Builder
	size   int // bytes appended in all

	scan      int    // bytes of the tail scanned for line ends
	hasText   bool   // the tail has a non-blank line before scan
	inFence   bool   // scan is inside a fenced code block
	fenceOpen string // the line that opened it, to reopen it after a split
	tailCont  bool   // the tail follows the last block with no blank line
	tailPre   int    // bytes at the tail's start that reopen a split fence

	tailCache renderCache // the tail's render (version = tailVer)
	tailVer   uint64      // bumped on every append
	tailWrap  wrapState   // a tail too long for markdown, wrapped incrementally

	shownSize int     // size at the last walk (see fastBytes)
	held      []piece // the pieces of the last walk, kept while a view holds
	heldWidth int
	heldEpoch uint64
	heldNeed  int
	heldSize  int // size when held was made
	heldUnder int // lines of the view's offset left below it then
}

// len returns the number of bytes appended.
func (b *mdBody) len() int { return b.size }

// textLog returns the log the blocks are kept in (a body made on its
// own, in a test, gets one that keeps everything in memory).
func (b *mdBody) textLog() *textLog {
	if b.log == nil {
		b.log = newTextLog("", 0)
	}
	return b.log
}

// src returns a block's source, from memory or read back from the spool.
func (b *mdBody) src(bl *block) string {
	return b.textLog().text(bl.off, int(bl.size))
}

// String returns the text as the agent sent it (it copies; for tests
// and rare uses).
func (b *mdBody) String() string {
	var s strings.Builder
	for _, bl := range b.blocks {
		s.WriteString(b.src(bl)[bl.pre : int(bl.size)-int(bl.post)])
	}
	s.WriteString(b.tail.String()[b.tailPre:])
	return s.String()
}

// logRun is a run of bytes in the transcript's log.
type logRun struct{ off, n int64 }

// trimmed returns the text as the agent sent it, without its trailing
// line ends (as strings.TrimRight(b.String(), "\n")), as runs of the log
// and what is left of the tail: the blocks were added one after another,
// so they make one run, or one more for each split code block.
func (b *mdBody) trimmed() (runs []logRun, tail string) {
	last, cut := len(b.blocks)-1, int64(0)
	if tail = strings.TrimRight(b.tail.String()[b.tailPre:], "\n"); tail == "" {
		for ; last >= 0; last-- {
			bl := b.blocks[last]
			own := b.src(bl)[bl.pre : int(bl.size)-int(bl.post)]
			if kept := len(strings.TrimRight(own, "\n")); kept > 0 {
				cut = int64(len(own) - kept)
				break
			}
		}
	}
	for j := 0; j <= last; j++ {
		bl := b.blocks[j]
		off, n := bl.off+int64(bl.pre), int64(bl.size)-int64(bl.pre)-int64(bl.post)
		if j == last {
			n -= cut
		}
		if k := len(runs) - 1; k >= 0 && runs[k].off+runs[k].n == off {
			runs[k].n += n
		} else if n > 0 {
			runs = append(runs, logRun{off, n})
		}
	}
	return runs, tail
}

// newBlock adds the parts to the log as one block's source; pre and post
// are the bytes of fence lines a split added at its start and end.
func (b *mdBody) newBlock(cont bool, pre, post int, parts ...string) *block {
	off, n := b.textLog().add(parts...)
	return &block{off: off, size: int32(n), cont: cont, pre: uint8(pre), post: uint8(post)}
}

// empty reports whether the message has nothing but white space so far.
func (b *mdBody) empty() bool {
	return len(b.blocks) == 0 && strings.TrimSpace(b.tail.String()) == ""
}

// append adds streamed text and settles every block it completes.
func (b *mdBody) append(s string) {
	if s == "" {
		return
	}
	b.size += len(s)
	b.tail.WriteString(s)
	b.tailVer++
	for {
		t := b.tail.String()
		nl := strings.IndexByte(t[b.scan:], '\n')
		if nl < 0 {
			b.scan = len(t)
			return
		}
		start, end := lineStart(t, b.scan), b.scan+nl+1
		b.scan = end
		line := t[start : end-1]
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		switch {
		case indent <= 3 && isFence(trimmed, b.fenceOpen, b.inFence):
			b.inFence = !b.inFence
			if b.inFence {
				b.fenceOpen = trimmed + "\n"
			}
			b.hasText = true
		case !b.inFence && strings.TrimSpace(line) == "":
			if b.hasText { // a blank line after text ends a block
				b.settle(end, false)
				continue
			}
		default:
			b.hasText = true
		}
		if end >= blockLimit && (!strings.HasPrefix(trimmed, "|") || end >= tableLimit) && (!b.inFence || len(b.fenceOpen) <= maxFenceLine) {
			b.settle(end, true)
		}
	}
}

// lineStart returns where the line holding pos-1's successor starts: the
// byte after the last line end before pos.
func lineStart(t string, pos int) int {
	return strings.LastIndexByte(t[:pos], '\n') + 1
}

// isFence reports whether a line (indent removed) opens a fenced code
// block, or closes the open one (same fence character).
func isFence(trimmed, open string, inFence bool) bool {
	if !strings.HasPrefix(trimmed, "```") && !strings.HasPrefix(trimmed, "~~~") {
		return false
	}
	return !inFence || trimmed[0] == open[0]
}

// settle makes the tail's first end bytes a block. A split inside a code
// fence closes the fence in this block and reopens it in the tail, so both
// render as code. cont says the next block follows with no blank line.
func (b *mdBody) settle(end int, cont bool) {
	t := b.tail.String()
	src, rest := t[:end], t[end:]
	reopen, closing := "", ""
	if b.inFence {
		fence := b.fenceOpen[:strings.IndexFunc(b.fenceOpen, func(r rune) bool { return r != rune(b.fenceOpen[0]) })]
		closing = fence + "\n"
		reopen = b.fenceOpen
	}
	b.blocks = append(b.blocks, b.newBlock(b.tailCont, b.tailPre, len(closing), src, closing))
	b.tailCont = cont
	b.tail = strings.Builder{}
	b.tail.Grow(len(reopen) + len(rest) + 256)
	b.tail.WriteString(reopen)
	b.tail.WriteString(rest)
	b.scan, b.tailPre = len(reopen), len(reopen)
	b.hasText = reopen != ""
	b.tailCache.drop()
	b.tailWrap = wrapState{}
}

// finish settles the tail as the last block when the message ends. Its
// render, when it is up to date, moves with it: the end of a stream
// renders nothing again.
func (b *mdBody) finish() {
	t := b.tail.String()
	if strings.TrimSpace(t) == "" {
		return
	}
	bl := b.newBlock(b.tailCont, b.tailPre, 0, t)
	if c := b.tailCache; c.lines != nil && c.version == b.tailVer {
		bl.cache = &renderCache{lines: c.lines, width: c.width, epoch: c.epoch, cheap: c.cheap}
		bl.cache.slot = &bl.cache
	}
	b.blocks = append(b.blocks, bl)
	b.tail = strings.Builder{}
	b.tailCache.drop()
	b.tailWrap = wrapState{}
	b.scan, b.hasText, b.tailCont, b.tailPre = 0, false, false, 0
	b.held = nil
}
