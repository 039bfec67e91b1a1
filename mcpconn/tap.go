package mcpconn

import (
	"bytes"
	"io"
	"sync"
)

// lineTap hands every complete line that passes through it to f, before
// the bytes go on; a line over maxObserved is not handed (it passes).
type lineTap struct {
	f    func([]byte)
	buf  []byte
	over bool
}

func (t *lineTap) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if !t.over {
			if len(t.buf)+len(chunk) > maxObserved {
				t.over, t.buf = true, nil
			} else {
				t.buf = append(t.buf, chunk...)
			}
		}
		if i < 0 {
			return
		}
		if !t.over && len(bytes.TrimSpace(t.buf)) > 0 {
			t.f(t.buf)
		}
		t.buf, t.over = t.buf[:0], false
		p = p[i+1:]
	}
}

// tapReader observes what the SDK reads.
type tapReader struct {
	r   io.ReadCloser
	tap lineTap
}

func (t *tapReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.tap.feed(p[:n])
	return n, err
}

func (t *tapReader) Close() error { return t.r.Close() }

// tapWriter observes what the SDK writes.
type tapWriter struct {
	mu  sync.Mutex
	w   io.WriteCloser
	tap lineTap
}

func (t *tapWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.tap.feed(p)
	t.mu.Unlock()
	return t.w.Write(p)
}

func (t *tapWriter) Close() error { return t.w.Close() }
