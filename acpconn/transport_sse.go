package acpconn

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// errEventTooLong ends an SSE stream whose event is over MaxLineBytes;
// what was read of it is handed on first, so the throttled reader reports
// it as it reports an over-long line on stdio (ErrLineTooLong).
var errEventTooLong = errors.New("an SSE event over the message limit")

// readSSE reads a text/event-stream and hands the data of each event
// ("message" events, or events without a type) to emit, its data lines
// joined by line breaks. Comments (keep-alives), ids and retry fields are
// read and ignored. Lines may end in CRLF, LF or a bare CR.
//
// Hand-written: the Go SSE libraries hold whole events without a bound
// and read from their own HTTP client; this one bounds an event at
// MaxLineBytes (the limit of a line on stdio) and reads any body.
func readSSE(r io.Reader, emit func(data []byte) error) error {
	p := sseParser{emit: emit}
	br := bufio.NewReaderSize(r, 64*1024)
	for {
		chunk, err := br.ReadSlice('\n')
		if perr := p.feed(chunk); perr != nil {
			return perr
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			if len(p.line) > 0 {
				if perr := p.field(); perr != nil {
					return perr
				}
			}
			return p.dispatch() // a last event without its blank line
		case err != nil:
			return err
		}
	}
}

// sseParser holds the line and the event being read.
type sseParser struct {
	emit      func([]byte) error
	line      []byte
	data      []byte
	hasData   bool
	skip      bool // the event has a type other than "message"
	pendingCR bool // the last line ended in CR: a LF right after it is part of the same break
}

// feed takes bytes as read; every CR, LF or CRLF ends a line.
func (p *sseParser) feed(b []byte) error {
	if p.pendingCR && len(b) > 0 && b[0] == '\n' {
		b = b[1:]
	}
	p.pendingCR = false
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			p.line = append(p.line, b...)
			if len(p.line) > MaxLineBytes+len("data: ") {
				return p.tooLong(p.line)
			}
			return nil
		}
		p.line = append(p.line, b[:i]...)
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

// field handles one complete line.
func (p *sseParser) field() error {
	line := p.line
	p.line = p.line[:0]
	if len(line) == 0 {
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
			p.data = append(p.data, '\n')
		}
		p.data = append(p.data, value...)
		p.hasData = true
		if len(p.data) > MaxLineBytes {
			return p.tooLong(p.data)
		}
	case "event":
		p.skip = len(value) > 0 && string(value) != "message"
	}
	return nil
}

// dispatch ends an event: its data goes to emit.
func (p *sseParser) dispatch() error {
	data, has, skip := p.data, p.hasData, p.skip
	p.data, p.hasData, p.skip = p.data[:0], false, false
	if cap(p.data) > keepLineBuffer {
		p.data = nil
	}
	if !has || skip || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	return p.emit(data)
}

// tooLong hands on the start of an over-long event, enough for the
// throttled reader to refuse it, and ends the stream.
func (p *sseParser) tooLong(b []byte) error {
	if len(b) > MaxLineBytes+1 {
		b = b[:MaxLineBytes+1]
	}
	_ = p.emit(b)
	return errEventTooLong
}
