package acpconn

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// The pipe holds at most pipeSize (a writer waits beyond it: the network
// reads stop), gives the reader everything written in order, then EOF
// after CloseWrite; CloseRead fails a waiting writer.
func TestBufPipe(t *testing.T) {
	p := newBufPipe()
	line := bytes.Repeat([]byte("x"), 1000)
	wrote := make(chan int)
	go func() {
		n := 0
		for i := 0; i < 200; i++ {
			if _, err := p.Write(line); err != nil {
				break
			}
			n++
		}
		p.CloseWrite()
		wrote <- n
	}()
	// The writer fills the pipe, and waits: no more than pipeSize is held.
	testkit.Until(t, "a full pipe", func() bool {
		p.mu.Lock()
		held := len(p.buf)
		p.mu.Unlock()
		if held > pipeSize {
			t.Fatalf("the pipe holds %d bytes", held)
		}
		return held > pipeSize-len(line)
	}, nil, nil)
	got, err := io.ReadAll(p)
	if err != nil || len(got) != 200*len(line) || <-wrote != 200 {
		t.Fatalf("read %d bytes, %v", len(got), err)
	}

	q := newBufPipe()
	_, _ = q.Write(bytes.Repeat([]byte("y"), pipeSize))
	failed := make(chan error)
	go func() {
		_, err := q.Write(line)
		failed <- err
	}()
	q.CloseRead()
	if err := <-failed; !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("a waiting write after CloseRead: %v", err)
	}
}
