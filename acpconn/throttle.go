package acpconn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elicit-dev/elicit/internal/netclient"
)

// MaxLineBytes is the SDK's limit on one JSON-RPC line; a longer line would
// make it close the connection without a word, so the reader ends the
// session itself with ErrLineTooLong. It is the limit of one message over
// the network too (netclient.MaxMessageBytes: a WebSocket message, an SSE
// event, a response body), for ACP and MCP alike.
const MaxLineBytes = netclient.MaxMessageBytes

// maxInFlightNotifications bounds the lines read but not yet handled; it must stay below the SDK's queue of 1024, which closes the
// connection when full.
const maxInFlightNotifications = 256

// errBlank stands for the scan of a blank line, which the SDK skips.
var errBlank = errors.New("blank line")

// ErrLineTooLong ends a session whose agent sent a line over MaxLineBytes.
var ErrLineTooLong = fmt.Errorf("the agent sent a message over %d MiB; the connection was closed", MaxLineBytes>>20)

// throttledReader sits between the agent's stdout and the SDK. It hands
// the SDK one line at a time and counts the lines that carry a method
// (requests and notifications); the handler counts them handled. While too
// many wait, reading stops, so the pipe, not the SDK's bounded queue,
// absorbs a burst. At end of input it holds EOF back until every line it
// passed was handled: the SDK drops a response whose preceding
// notifications are still queued when the connection closes. The SDK has
// no hook for either; it is hand-written for that reason.
type throttledReader struct {
	src   *bufio.Reader
	trace func(dir string, line []byte)
	// filter, when set, sees every line first, with the line's one scan
	// (scanFrame): it passes it on (maybe rewritten) or drops it, and
	// classifies what it passes as classify would (see gate.inspect).
	filter func(line []byte, f frame, err error) (out []byte, pass, method, notification bool)
	stray  func(line []byte) // sees every line; reports those that are not JSON-RPC
	// atEOF runs before the end of file is handed on (see answerCount).
	atEOF func()

	mu      sync.Mutex
	cond    *sync.Cond
	passed  uint64 // lines with a method handed to the SDK
	handled uint64 // of those, handled (see release)
	stopped bool   // the connection is being closed: never wait again

	// The SDK runs each request on a goroutine at once but queues
	// notifications, so a request can overtake the notifications sent
	// before it (a form scoped to a tool call arriving before the call).
	// Requests that reach the user wait for those: see waitNotifications.
	notesPassed  uint64 // notifications handed to the SDK
	notesHandled uint64 // notifications handled

	ready chan struct{} // closed by open: nothing is read before

	line    []byte // what is left of the current line
	buf     []byte // the line buffer, reused (see readLine)
	err     error  // sticky error
	tooLong atomic.Bool
}

func newThrottledReader(r io.Reader, stop <-chan struct{}, trace func(string, []byte)) *throttledReader {
	t := &throttledReader{src: bufio.NewReaderSize(r, 64*1024), trace: trace, ready: make(chan struct{})}
	t.cond = sync.NewCond(&t.mu)
	go func() {
		<-stop
		t.mu.Lock()
		t.stopped = true
		t.cond.Broadcast()
		t.mu.Unlock()
	}()
	return t
}

// open lets reading begin. The SDK starts reading as soon as its
// connection is made, and reads its logger field unguarded, so SetLogger
// must come first: the connection is opened after it.
func (t *throttledReader) open() { close(t.ready) }

// release counts one line with a method as handled. Notifications are
// released when handled, requests that wait for the user when they start.
func (t *throttledReader) release() {
	t.mu.Lock()
	t.handled++
	t.cond.Broadcast()
	t.mu.Unlock()
}

// acquire waits while too many lines are unhandled, then counts one more.
func (t *throttledReader) acquire(notification bool) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.passed-t.handled >= maxInFlightNotifications && !t.stopped {
		t.cond.Wait()
	}
	t.passed++
	if notification {
		t.notesPassed++
	}
	return !t.stopped
}

// noteHandled counts one notification handled.
func (t *throttledReader) noteHandled() {
	t.mu.Lock()
	t.notesHandled++
	t.cond.Broadcast()
	t.mu.Unlock()
}

// waitNotifications waits until every notification read so far has been
// handled, so a request reaches the UI after what the agent sent before
// it. It gives up after timeout: ordering is a courtesy, never a hang.
func (t *throttledReader) waitNotifications(timeout time.Duration) {
	t.mu.Lock()
	idle := t.notesHandled >= t.notesPassed || t.stopped
	t.mu.Unlock()
	if idle { // nothing to wait for: no timer
		return
	}
	expired := false
	timer := time.AfterFunc(timeout, func() {
		t.mu.Lock()
		expired = true
		t.cond.Broadcast()
		t.mu.Unlock()
	})
	defer timer.Stop()
	t.mu.Lock()
	defer t.mu.Unlock()
	target := t.notesPassed
	for t.notesHandled < target && !t.stopped && !expired {
		t.cond.Wait()
	}
}

// drain waits, at most timeout, until every line passed was handled.
func (t *throttledReader) drain(timeout time.Duration) {
	timer := time.AfterFunc(timeout, func() {
		t.mu.Lock()
		t.stopped = true
		t.cond.Broadcast()
		t.mu.Unlock()
	})
	defer timer.Stop()
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.passed != t.handled && !t.stopped {
		t.cond.Wait()
	}
}

func (t *throttledReader) Read(p []byte) (int, error) {
	<-t.ready
	for len(t.line) == 0 {
		if t.err != nil {
			return 0, t.err
		}
		line, err := t.readLine()
		if err != nil {
			t.err = err
			if err == io.EOF {
				t.drain(5 * time.Second)
				if t.atEOF != nil {
					t.atEOF()
				}
			}
			if len(line) == 0 {
				return 0, err
			}
		}
		if t.trace != nil {
			t.trace("<-", line)
		}
		if t.stray != nil && (len(line) == 0 || line[0] != '{') {
			t.stray(line)
		}
		// One scan of the line serves the gate and the count below.
		f, serr := frame{}, errBlank
		if !blank(line) {
			f, serr = scanFrame(line)
		}
		var method, note bool
		if t.filter != nil {
			out, pass, m, n := t.filter(line, f, serr)
			if !pass {
				continue
			}
			line, method, note = out, m, n
		} else {
			method, note = classify(f, serr)
		}
		if method && !t.acquire(note) {
			return 0, io.EOF
		}
		t.line = line
	}
	n := copy(p, t.line)
	t.line = t.line[n:]
	return n, nil
}

// readLine reads one line, newline included, refusing lines over the
// limit. The line is read into the same buffer every time: it is handed
// on (copied by the SDK's Read) before the next is read, and nothing keeps
// it. A buffer grown past keepLineBuffer is let go.
func (t *throttledReader) readLine() ([]byte, error) {
	buf := t.buf[:0]
	for {
		chunk, err := t.src.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLineBytes {
			t.tooLong.Store(true)
			return nil, ErrLineTooLong
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if t.buf = buf; cap(buf) > keepLineBuffer {
			t.buf = nil
		}
		return buf, err
	}
}

// keepLineBuffer is the largest line buffer kept for the next line.
const keepLineBuffer = 256 * 1024

// blank reports whether a line holds only white space (the SDK skips it).
func blank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// classify tells, the way the SDK will, from the line's one scan, whether
// it reaches the handler (it decodes, has a method, and is not
// $/cancel_request, which the SDK handles on its reader), and whether it
// is a notification. A line the SDK cannot decode (err) takes no slot.
func classify(f frame, err error) (method, notification bool) {
	if err != nil || f.method == "" || f.id == nil && f.method == "$/cancel_request" {
		return false, false
	}
	return true, f.id == nil
}
