package fullscreen

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// logChunk is how much text the log gathers before it can go to the
// spool as one write.
const logChunk = 256 << 10

// logKeep is how much of the transcript's settled text stays in memory:
// the newest, where the view almost always is. The rest is in the spool,
// read back when a view scrolls to it, a search or an export reads it.
const logKeep = 4 << 20

// textLog holds the transcript's settled text (the blocks of agent
// messages, finished thoughts, prompts) append-only, in chunks: the
// newest keep bytes in memory, older chunks in the spool once written
// there. A piece of text is known by its offset and length, which never
// change. Without a spool (no state directory) everything stays in memory.
type textLog struct {
	chunks []*chunk // oldest first
	size   int64    // bytes appended
	keep   int64    // bytes of chunks kept in memory, past which older ones go
	chunk  int      // the size of a chunk (logChunk; tests make it small)
	sp     *spool

	queued int   // chunks[:queued] were handed to the spool
	freed  int   // chunks[:freed] are in the spool only
	held   int64 // bytes of memory the chunks[freed:] take (their capacity)
	noted  bool  // the spool failed, and the transcript said so: nothing more goes there
}

// chunk is a run of the log's text; buf holds it while it is in memory.
type chunk struct {
	off int64
	n   int
	buf strings.Builder
}

// newTextLog returns a log that keeps keep bytes in memory and sends the
// rest to a scratch file in dir ("" keeps everything in memory).
func newTextLog(dir string, keep int64) *textLog {
	l := &textLog{keep: keep, chunk: logChunk}
	if dir != "" {
		l.sp = newSpool(dir)
	}
	return l
}

// add appends parts as one piece of text (kept in one chunk) and returns
// where it starts and its length.
func (l *textLog) add(parts ...string) (off int64, n int) {
	for _, p := range parts {
		n += len(p)
	}
	c := l.last()
	if c == nil || c.buf.Cap()-c.buf.Len() < n {
		c = &chunk{off: l.size}
		c.buf.Grow(max(l.chunk, n))
		l.chunks = append(l.chunks, c)
		l.held += int64(c.buf.Cap())
		l.spill()
	}
	for _, p := range parts {
		c.buf.WriteString(p)
	}
	off = l.size
	c.n += n
	l.size += int64(n)
	return off, n
}

func (l *textLog) last() *chunk {
	if len(l.chunks) == 0 {
		return nil
	}
	return l.chunks[len(l.chunks)-1]
}

// spill hands the oldest full chunks to the spool while more than keep
// bytes would stay, and lets go of those written already.
func (l *textLog) spill() {
	if l.sp == nil || l.noted {
		return
	}
	l.reclaim()
	stay := l.held
	for i := l.freed; i < l.queued; i++ {
		stay -= int64(l.chunks[i].buf.Cap())
	}
	for l.queued < len(l.chunks)-1 && stay > l.keep {
		c := l.chunks[l.queued]
		l.sp.write(c.buf.String())
		stay -= int64(c.buf.Cap())
		l.queued++
	}
}

// reclaim lets go of the chunks the spool has written. A chunk the spool
// could not write stays in memory: nothing is lost.
func (l *textLog) reclaim() {
	if l.sp == nil {
		return
	}
	written := l.sp.written.Load()
	for l.freed < l.queued {
		c := l.chunks[l.freed]
		if c.off+int64(c.n) > written {
			break
		}
		l.held -= int64(c.buf.Cap())
		c.buf = strings.Builder{}
		l.freed++
	}
}

// failure returns, once, why the log could not send its text to the
// spool: from then on it keeps everything in memory.
func (l *textLog) failure() error {
	if l.sp == nil || l.noted {
		return nil
	}
	err := l.sp.failure()
	l.noted = err != nil // spill stops: what was written stays readable
	return err
}

// read reads text the spool holds.
func (l *textLog) read(p []byte, off int64) error {
	if l.sp == nil {
		return errSpoolClosed
	}
	return l.sp.readAt(p, off)
}

// close lets the spool's file go.
func (l *textLog) close() {
	if l.sp != nil {
		l.sp.close()
	}
}

// find returns the index of the chunk holding offset off.
func (l *textLog) find(off int64) int {
	return sort.Search(len(l.chunks), func(i int) bool { return l.chunks[i].off > off }) - 1
}

// text returns the n bytes at off (one piece, as add returned it): from
// memory when they are there, else read back from the spool.
func (l *textLog) text(off int64, n int) string {
	if n == 0 {
		return ""
	}
	i := l.find(off)
	if i >= l.freed {
		c := l.chunks[i]
		return c.buf.String()[off-c.off : off-c.off+int64(n)]
	}
	p := make([]byte, n)
	if err := l.read(p, off); err != nil {
		return fmt.Sprintf("(%d bytes of this transcript could not be read back: %v)\n", n, err)
	}
	return string(p)
}

// logReader reads the log as it was when it was made, and can do so on
// another goroutine (an export writes the conversation from a command,
// while the log goes on).
type logReader struct {
	sp     *spool
	chunks []chunkView
}

// chunkView is a chunk as a reader sees it: its text, or "in the spool".
type chunkView struct {
	off  int64
	n    int
	text string
	disk bool
}

// reader returns a reader of the log so far.
func (l *textLog) reader() *logReader {
	r := &logReader{sp: l.sp, chunks: make([]chunkView, len(l.chunks))}
	for i, c := range l.chunks {
		r.chunks[i] = chunkView{off: c.off, n: c.n, text: c.buf.String(), disk: i < l.freed}
	}
	return r
}

// readBuf is how much a reader reads from the spool at a time.
const readBuf = 64 << 10

// writeTo writes the n bytes of the log at off to w, from memory or read
// back from the spool a piece at a time.
func (r *logReader) writeTo(w io.Writer, off, n int64) error {
	var buf []byte
	end := off + n
	i := sort.Search(len(r.chunks), func(i int) bool { return r.chunks[i].off > off }) - 1
	for ; i >= 0 && i < len(r.chunks) && off < end; i++ {
		c := r.chunks[i]
		hi := min(end, c.off+int64(c.n))
		if !c.disk {
			if _, err := io.WriteString(w, c.text[off-c.off:hi-c.off]); err != nil {
				return err
			}
			off = hi
			continue
		}
		if buf == nil {
			buf = make([]byte, readBuf)
		}
		for off < hi {
			p := buf[:min(int64(len(buf)), hi-off)]
			if r.sp == nil {
				return errSpoolClosed
			}
			if err := r.sp.readAt(p, off); err != nil {
				return fmt.Errorf("reading the transcript back: %w", err)
			}
			if _, err := w.Write(p); err != nil {
				return err
			}
			off += int64(len(p))
		}
	}
	return nil
}
