package acpconn

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// MaxLineBytes is the SDK's limit on one JSON-RPC line; a longer line would
// make it close the connection without a word, so the reader ends the
// session itself with ErrLineTooLong.
const MaxLineBytes = 10 * 1024 * 1024

// maxInFlightNotifications bounds the lines read but not yet handled; it must stay below the SDK's queue of 1024, which closes the
// connection when full.
const maxInFlightNotifications = 256

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

	mu      sync.Mutex
	cond    *sync.Cond
	passed  uint64 // lines with a method handed to the SDK
	handled uint64 // of those, handled (see release)
	stopped bool   // the connection is being closed: never wait again

	line    []byte // what is left of the current line
	err     error  // sticky error
	tooLong atomic.Bool
}

func newThrottledReader(r io.Reader, stop <-chan struct{}, trace func(string, []byte)) *throttledReader {
	t := &throttledReader{src: bufio.NewReaderSize(r, 64*1024), trace: trace}
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

// release counts one line with a method as handled. Notifications are
// released when handled, requests that wait for the user when they start.
func (t *throttledReader) release() {
	t.mu.Lock()
	t.handled++
	t.cond.Broadcast()
	t.mu.Unlock()
}

// acquire waits while too many lines are unhandled, then counts one more.
func (t *throttledReader) acquire() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.passed-t.handled >= maxInFlightNotifications && !t.stopped {
		t.cond.Wait()
	}
	t.passed++
	return !t.stopped
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
	for len(t.line) == 0 {
		if t.err != nil {
			return 0, t.err
		}
		line, err := t.readLine()
		if err != nil {
			t.err = err
			if err == io.EOF {
				t.drain(5 * time.Second)
			}
			if len(line) == 0 {
				return 0, err
			}
		}
		if t.trace != nil {
			t.trace("<-", line)
		}
		if hasMethod(line) && !t.acquire() {
			return 0, io.EOF
		}
		t.line = line
	}
	n := copy(p, t.line)
	t.line = t.line[n:]
	return n, nil
}

// readLine reads one line, newline included, refusing lines over the limit.
func (t *throttledReader) readLine() ([]byte, error) {
	var buf []byte
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
		return buf, err
	}
}

// hasMethod tells, the way the SDK will, whether a line reaches the
// handler: it decodes, has a method, and is not $/cancel_request (which the
// SDK handles on its reader).
func hasMethod(line []byte) bool {
	// The same shape as the SDK's envelope, so a line it cannot decode
	// (and so never hands to the handler) takes no slot here either.
	var env struct {
		JSONRPC string            `json:"jsonrpc"`
		ID      *json.RawMessage  `json:"id,omitempty"`
		Method  string            `json:"method,omitempty"`
		Params  json.RawMessage   `json:"params,omitempty"`
		Result  json.RawMessage   `json:"result,omitempty"`
		Error   *acp.RequestError `json:"error,omitempty"`
	}
	if json.Unmarshal(line, &env) != nil {
		return false
	}
	return env.Method != "" && !(env.ID == nil && env.Method == "$/cancel_request")
}
