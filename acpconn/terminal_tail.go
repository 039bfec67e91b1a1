package acpconn

import "unicode/utf8"

// tail keeps the last limit bytes written to it: a buffer that grows up to
// limit, then is used as a ring, so a command that prints gigabytes costs
// limit bytes and no copying of what is kept (hand-written: container/ring
// holds values, not bytes). The zero value keeps nothing.
type tail struct {
	limit   int
	buf     []byte // len(buf) <= limit; once full, a ring starting at start
	start   int
	dropped bool // output was dropped from the beginning
}

func newTail(limit int) *tail { return &tail{limit: limit} }

func (r *tail) write(p []byte) {
	if len(p) == 0 {
		return
	}
	if len(p) >= r.limit {
		r.dropped = r.dropped || len(r.buf) > 0 || len(p) > r.limit
		r.buf, r.start = append(r.buf[:0], p[len(p)-r.limit:]...), 0
		return
	}
	if room := r.limit - len(r.buf); room > 0 {
		n := min(room, len(p))
		r.buf, p = append(r.buf, p[:n]...), p[n:]
	}
	for len(p) > 0 { // full: overwrite the oldest
		n := copy(r.buf[r.start:], p)
		p, r.start, r.dropped = p[n:], (r.start+n)%r.limit, true
	}
}

// bytes returns a copy of what is kept, oldest first; once output was
// dropped, it starts at a character boundary, as the spec asks.
func (r *tail) bytes() (out []byte, truncated bool) {
	out = make([]byte, 0, len(r.buf))
	out = append(append(out, r.buf[r.start:]...), r.buf[:r.start]...)
	if r.dropped {
		// A character cut at the front leaves at most UTFMax-1 of its
		// continuation bytes; more are not a character (invalid UTF-8) and
		// stay, as the output had them.
		for i := 0; i < utf8.UTFMax-1 && len(out) > 0 && !utf8.RuneStart(out[0]); i++ {
			out = out[1:]
		}
	}
	return out, r.dropped
}
