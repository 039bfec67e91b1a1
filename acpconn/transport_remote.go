package acpconn

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"time"
)

// remoteBase is what the WebSocket and HTTP+SSE links share: the pipe the
// agent's messages reach the connection through (one whole line per
// write, so the throttled reader and its caps see them as they see an
// agent's stdout, and a slow reader stops the network reads once the
// pipe's buffer is full: see bufPipe), and how the link ended.
type remoteBase struct {
	nw    *network
	trace func(string)
	pipe  *bufPipe
	wmu   sync.Mutex // one line at a time into the pipe (HTTP+SSE has several streams)

	ctx    context.Context // ends with the link: every request and stream uses it
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
	mu     sync.Mutex
	fail   error  // why it ended, when not ended by stop
	lost   bool   // it ended without elicit ending it
	onEnd  func() // closes what the link reads from
}

func newRemoteBase(nw *network, trace func(string)) (*remoteBase, error) {
	ctx, cancel := context.WithCancel(context.Background())
	return &remoteBase{nw: nw, trace: trace, pipe: newBufPipe(), ctx: ctx, cancel: cancel, done: make(chan struct{})}, nil
}

// deliver hands one message to the connection as one line. A raw line
// break can only be white space between JSON tokens (inside a string it
// must be escaped), so it becomes a space: an SSE event's data lines are
// joined with one, and a pretty-printed frame stays one line. It blocks
// while the connection is behind (backpressure). msg is the caller's to
// change: the line break is appended to it.
func (b *remoteBase) deliver(msg []byte) error {
	for i, c := range msg {
		if c == '\n' || c == '\r' {
			msg[i] = ' '
		}
	}
	msg = append(msg, '\n')
	b.wmu.Lock()
	defer b.wmu.Unlock()
	_, err := b.pipe.Write(msg)
	return err
}

// end records how the link ended, once: lost says elicit did not end it.
// The agent's messages already delivered stay readable; then the lines
// end.
func (b *remoteBase) end(err error, lost bool) {
	b.once.Do(func() {
		b.mu.Lock()
		b.fail, b.lost = err, lost
		b.mu.Unlock()
		if err != nil {
			b.trace("the connection ended: " + b.nw.redact(err.Error()))
		}
		b.cancel()
		if b.onEnd != nil {
			b.onEnd()
		}
		b.pipe.CloseWrite()
		close(b.done)
	})
}

func (b *remoteBase) lines() io.Reader       { return b.pipe }
func (b *remoteBase) gone() <-chan struct{}  { return b.done }
func (b *remoteBase) cleanup()               {}
func (b *remoteBase) closeLines()            { b.pipe.CloseRead() }
func (b *remoteBase) stderrTail() []string   { return nil }
func (b *remoteBase) settle(time.Duration)   {}
func (b *remoteBase) pid() int               { return 0 }
func (b *remoteBase) endedBy() (error, bool) { b.mu.Lock(); defer b.mu.Unlock(); return b.fail, b.lost }

func (b *remoteBase) failure() error {
	err, _ := b.endedBy()
	if errors.Is(err, errClosedByUs) {
		return nil
	}
	return err
}

func (b *remoteBase) exitInfo() ExitInfo {
	err, lost := b.endedBy()
	if errors.Is(err, errClosedByUs) {
		err = nil
	}
	return ExitInfo{Code: -1, Err: err, Remote: true, Lost: lost}
}

// errClosedByUs is how a link ends when elicit ends it.
var errClosedByUs = errors.New("closed by elicit")

// wait waits at most d for the link to end.
func (b *remoteBase) wait(d time.Duration) {
	select {
	case <-b.done:
	case <-time.After(d):
	}
}

// trimLine is a message as written by the SDK or the gate, without its
// line break.
func trimLine(p []byte) []byte { return bytes.TrimRight(p, "\r\n") }
