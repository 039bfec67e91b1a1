package netclient

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// EventParser reads a text/event-stream as it arrives, bounding each
// event: a line over MaxMessageBytes (with its field name) or an event
// whose data is over MaxMessageBytes fails with ErrTooLarge. Each event's
// data ("message" events, or events without a type; data lines joined by
// line breaks) goes to Emit; comments (keep-alives), ids and retry fields
// are read and ignored. Lines may end in CRLF, LF or a bare CR. With Emit
// nil it only counts, holding no event: the guard of every client of New
// counts so, whoever reads the stream.
//
// Hand-written: the Go SSE libraries hold whole events without a bound
// and read from their own HTTP client; this one reads any body as it
// passes and bounds what it holds.
type EventParser struct {
	Emit func(data []byte) error

	line      []byte // the line being read (only its start when counting)
	lineLen   int
	data      []byte
	dataLen   int
	hasData   bool
	skip      bool // the event has a type other than "message"
	pendingCR bool // the last line ended in CR: a LF right after it is part of the same break
}

// fieldPrefix is how much of a line a counting parser keeps: enough to
// tell a data line and where its value starts.
const fieldPrefix = len("data: ")

// maxLine is the longest line taken: a whole message after its field name.
const maxLine = MaxMessageBytes + len("data: ")

// Feed takes bytes as read; every CR, LF or CRLF ends a line.
func (p *EventParser) Feed(b []byte) error {
	if p.pendingCR && len(b) > 0 && b[0] == '\n' {
		b = b[1:]
	}
	p.pendingCR = false
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			return p.take(b)
		}
		if err := p.take(b[:i]); err != nil {
			return err
		}
		if err := p.field(); err != nil {
			return err
		}
		if b[i] == '\r' {
			if i+1 == len(b) {
				p.pendingCR = true
			} else if b[i+1] == '\n' {
				i++
			}
		}
		b = b[i+1:]
	}
	return nil
}

// End ends the stream: a last line and event without their breaks are
// taken.
func (p *EventParser) End() error {
	if p.lineLen > 0 {
		if err := p.field(); err != nil {
			return err
		}
	}
	return p.dispatch()
}

// take adds b to the line being read.
func (p *EventParser) take(b []byte) error {
	p.lineLen += len(b)
	if p.lineLen > maxLine {
		return ErrTooLarge
	}
	if keep := fieldPrefix - len(p.line); p.Emit == nil && keep < len(b) {
		b = b[:max(keep, 0)]
	}
	p.line = append(p.line, b...)
	return nil
}

// field handles one complete line.
func (p *EventParser) field() error {
	line, n := p.line, p.lineLen
	p.line, p.lineLen = p.line[:0], 0
	if n == 0 {
		return p.dispatch()
	}
	if line[0] == ':' {
		return nil // a comment: the server's keep-alive
	}
	name, value, _ := bytes.Cut(line, []byte{':'})
	value = bytes.TrimPrefix(value, []byte{' '})
	switch string(name) {
	case "data":
		if p.hasData {
			p.dataLen++
			p.data = append(p.data, '\n')
		}
		p.hasData = true
		// The value's length, counted on the whole line: a counting
		// parser keeps only its start.
		if vlen := n - len(line) + len(value); vlen > 0 {
			p.dataLen += vlen
		}
		if p.dataLen > MaxMessageBytes {
			return ErrTooLarge
		}
		if p.Emit != nil {
			p.data = append(p.data, value...)
		}
	case "event":
		p.skip = len(value) > 0 && string(value) != "message"
	}
	return nil
}

// dispatch ends an event: its data goes to Emit.
func (p *EventParser) dispatch() error {
	data, has, skip := p.data, p.hasData, p.skip
	p.data, p.dataLen, p.hasData, p.skip = p.data[:0], 0, false, false
	if cap(p.data) > keepBuffer {
		p.data = nil
	}
	if p.Emit == nil || !has || skip || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	return p.Emit(data)
}

// keepBuffer is the largest event buffer kept for the next event.
const keepBuffer = 256 * 1024

// ReadEvents reads a whole event stream from r through an EventParser
// that hands each event's data to emit; it returns emit's error, the
// stream's, or ErrTooLarge.
func ReadEvents(r io.Reader, emit func(data []byte) error) error {
	p := EventParser{Emit: emit}
	br := bufio.NewReaderSize(r, 64*1024)
	for {
		chunk, err := br.ReadSlice('\n')
		if perr := p.Feed(chunk); perr != nil {
			return perr
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			return p.End()
		case err != nil:
			return err
		}
	}
}

// eventCapped is an event stream's body that fails with ErrTooLarge once
// an event passes the cap, counted as it is read.
type eventCapped struct {
	rc  io.ReadCloser
	p   EventParser
	err error
}

func (e *eventCapped) Read(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.rc.Read(b)
	if perr := e.p.Feed(b[:n]); perr != nil {
		e.err = perr
		return 0, perr
	}
	return n, err
}

func (e *eventCapped) Close() error { return e.rc.Close() }
