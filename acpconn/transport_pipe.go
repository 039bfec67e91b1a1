package acpconn

import (
	"io"
	"sync"
)

// pipeSize bounds what a remote link holds for the connection before its
// network reads stop (backpressure), as an OS pipe's buffer does on stdio.
const pipeSize = 64 * 1024

// bufPipe carries a remote agent's messages, whole lines, to the
// connection's throttled reader. io.Pipe hands over each write on its own
// (a read per message), and an OS pipe costs a system call each way per
// message; this one buffers up to pipeSize in memory, so the reader takes
// every message that arrived since its last read in one read, as it does
// from an agent's stdout. Hand-written: neither the standard library nor
// a maintained module has a bounded in-memory pipe.
type bufPipe struct {
	mu       sync.Mutex
	readable sync.Cond
	writable sync.Cond
	buf      []byte
	wclosed  bool // no more writes: the reader gets EOF once it took the rest
	rclosed  bool // the reader is gone: writes fail
}

func newBufPipe() *bufPipe {
	p := &bufPipe{buf: make([]byte, 0, pipeSize)}
	p.readable.L, p.writable.L = &p.mu, &p.mu
	return p
}

// Write appends b whole, waiting while the buffer is full; a message
// larger than the buffer goes in alone.
func (p *bufPipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) > 0 && len(p.buf)+len(b) > pipeSize && !p.rclosed && !p.wclosed {
		p.writable.Wait()
	}
	if p.rclosed || p.wclosed {
		return 0, io.ErrClosedPipe
	}
	p.buf = append(p.buf, b...)
	p.readable.Signal()
	return len(b), nil
}

// Read takes what is buffered, waiting while there is nothing.
func (p *bufPipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) == 0 && !p.wclosed && !p.rclosed {
		p.readable.Wait()
	}
	if p.rclosed {
		return 0, io.ErrClosedPipe
	}
	if len(p.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.buf)
	rest := copy(p.buf, p.buf[n:])
	p.buf = p.buf[:rest]
	if cap(p.buf) > 4*pipeSize && rest == 0 { // a huge message passed: let it go
		p.buf = make([]byte, 0, pipeSize)
	}
	p.writable.Broadcast()
	return n, nil
}

// CloseWrite ends the stream: the reader takes what is left, then EOF; a
// write waiting for room fails.
func (p *bufPipe) CloseWrite() {
	p.mu.Lock()
	p.wclosed = true
	p.readable.Broadcast()
	p.writable.Broadcast()
	p.mu.Unlock()
}

// CloseRead drops what is left; writes fail from now on.
func (p *bufPipe) CloseRead() {
	p.mu.Lock()
	p.rclosed = true
	p.buf = nil
	p.readable.Broadcast()
	p.writable.Broadcast()
	p.mu.Unlock()
}
