package line

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// What the accessible session reads out of a command's output, as the
// full screen keeps only the tail of it: 50 MB of output must not reach a
// screen reader whole.
const (
	outputHead = 8 << 10 // read out as it comes
	outputTail = 8 << 10 // of the rest, the last bytes, read out when it ends
)

// capped is one terminal's output as read out so far.
type capped struct {
	shown int    // bytes of the head written
	tail  []byte // the last outputTail bytes after the head, at most twice that held
	left  int64  // bytes of output neither shown nor kept
}

// outputs caps each terminal's output; the zero value is ready.
type outputs struct{ byID map[string]*capped }

// write reads out the head of a command's output as it comes, and keeps
// only the tail of the rest, read out (after a line saying how much was
// left out) when the command exits or the turn ends.
func (o *outputs) write(w io.Writer, ev acpconn.TerminalOutput) {
	if o.byID == nil {
		o.byID = map[string]*capped{}
	}
	c := o.byID[ev.TerminalID]
	if c == nil {
		c = &capped{}
		o.byID[ev.TerminalID] = c
	}
	chunk := ev.Chunk
	if room := outputHead - c.shown; room > 0 && chunk != "" {
		n := min(room, len(chunk))
		for n < len(chunk) && n > 0 && !utf8.RuneStart(chunk[n]) {
			n-- // never half a character
		}
		io.WriteString(w, chunk[:n])
		c.shown += n
		if n == len(chunk) && c.shown < outputHead {
			chunk = ""
		} else {
			chunk = chunk[n:]
			c.shown = outputHead // the head is done: the rest goes to the tail
		}
	}
	if chunk != "" {
		c.tail = append(c.tail, chunk...)
		if len(c.tail) > 2*outputTail { // trimmed now and then, so a flood costs no copy per chunk
			c.trim()
		}
	}
	if ev.Exited {
		o.flush(w, ev.TerminalID)
	}
}

// trim keeps the last outputTail bytes of the tail, counting the rest.
func (c *capped) trim() {
	if len(c.tail) <= outputTail {
		return
	}
	cut := len(c.tail) - outputTail
	for cut < len(c.tail) && !utf8.RuneStart(c.tail[cut]) {
		cut++
	}
	c.left += int64(cut)
	c.tail = append([]byte(nil), c.tail[cut:]...)
}

// flush reads out what is kept of terminal id and forgets it.
func (o *outputs) flush(w io.Writer, id string) {
	c := o.byID[id]
	if c == nil {
		return
	}
	delete(o.byID, id)
	c.trim()
	if c.left > 0 {
		fmt.Fprintf(w, "\n[%s of the command's output left out; the last %s follow]\n", bytesText(c.left), bytesText(int64(len(c.tail))))
	}
	w.Write(c.tail)
}

// flushAll reads out what is kept of every terminal (the turn ended).
func (o *outputs) flushAll(w io.Writer) {
	for id := range o.byID {
		o.flush(w, id)
	}
}

func bytesText(n int64) string {
	switch {
	case n >= 10<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 10<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return say.Plural(int(n), "byte", "bytes")
}
