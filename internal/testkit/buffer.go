package testkit

import (
	"bytes"
	"sync"
)

// Buffer is an output that something running writes from its own
// goroutines while the test reads it. WaitFor and WaitUntil wake on each
// write, so a test waits for the text it needs, not for a while.
type Buffer struct {
	mu   sync.Mutex
	b    bytes.Buffer
	wake chan struct{} // closed and replaced by each write
}

// Write appends p.
func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wake != nil {
		close(l.wake)
		l.wake = nil
	}
	return l.b.Write(p)
}

// changed returns a channel closed by the next write.
func (l *Buffer) changed() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wake == nil {
		l.wake = make(chan struct{})
	}
	return l.wake
}

// String is what was written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Bytes is a copy of what was written so far.
func (l *Buffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}
