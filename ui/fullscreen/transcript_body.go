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
// which can no longer change however the message goes on, and its render
// for one width.
type block struct {
	src   string
	cont  bool // follows the previous block with no blank line between
	cache renderCache
}

// mdBody is an agent message's text as settled blocks and an unsettled
// tail. The text is held once: each block owns its bytes and the tail
// holds the rest. Appending costs the length of what was appended (each
// byte is scanned once for line ends), not the length of the message.
// Hand-written: glamour and goldmark parse whole documents only.
type mdBody struct {
	blocks []*block
	tail   strings.Builder
	size   int // bytes appended in all

	scan      int    // bytes of the tail scanned for line ends
	hasText   bool   // the tail has a non-blank line before scan
	inFence   bool   // scan is inside a fenced code block
	fenceOpen string // the line that opened it, to reopen it after a split
	tailCont  bool   // the tail follows the last block with no blank line

	tailCache renderCache // the tail's render (version = tailVer)
	tailVer   uint64      // bumped on every append
	tailWrap  wrapState   // a tail too long for markdown, wrapped incrementally

	shownSize int        // size at the last walk (see fastBytes)
	held      [][]string // the pieces of the last walk, kept while a view holds
	heldWidth int
	heldEpoch uint64
	heldNeed  int
	heldSize  int // size when held was made
}

// len returns the number of bytes appended.
func (b *mdBody) len() int { return b.size }

// String returns the whole text (it copies; for tests and rare uses).
func (b *mdBody) String() string {
	var s strings.Builder
	for _, bl := range b.blocks {
		s.WriteString(bl.src)
	}
	s.WriteString(b.tail.String())
	return s.String()
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
		if end >= blockLimit && (!strings.HasPrefix(trimmed, "|") || end >= tableLimit) {
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
	reopen := ""
	if b.inFence {
		fence := b.fenceOpen[:strings.IndexFunc(b.fenceOpen, func(r rune) bool { return r != rune(b.fenceOpen[0]) })]
		src += fence + "\n"
		reopen = b.fenceOpen
	} else {
		src = strings.Clone(src)
	}
	bl := &block{src: src, cont: b.tailCont}
	b.blocks = append(b.blocks, bl)
	b.tailCont = cont
	b.tail = strings.Builder{}
	b.tail.Grow(len(reopen) + len(rest) + 256)
	b.tail.WriteString(reopen)
	b.tail.WriteString(rest)
	b.scan = len(reopen)
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
	bl := &block{src: strings.Clone(t), cont: b.tailCont}
	if c := b.tailCache; c.lines != nil && c.version == b.tailVer {
		bl.cache = renderCache{lines: c.lines, width: c.width, epoch: c.epoch, cheap: c.cheap}
	}
	b.blocks = append(b.blocks, bl)
	b.tail = strings.Builder{}
	b.tailCache.drop()
	b.tailWrap = wrapState{}
	b.scan, b.hasText, b.tailCont = 0, false, false
	b.held = nil
}
