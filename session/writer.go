package session

import (
	"sync"
	"time"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// writer runs the session's writes (audit log, history) in order on one
// goroutine, so that no view's event loop waits for a disk, and keeps
// their failures for the next Changes: never silent.
type writer struct {
	jobs chan func()
	done chan struct{}
	mu   sync.Mutex
	errs []Note
	once sync.Once
}

func newWriter() *writer {
	w := &writer{jobs: make(chan func(), 256), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for f := range w.jobs {
			f()
		}
	}()
	return w
}

func (c *Core) bg(f func()) { c.writer.jobs <- f }

func (c *Core) bgErr(what string, err error) {
	c.writer.mu.Lock()
	c.writer.errs = append(c.writer.errs, Note{Level: Error, Text: what + ": " + sanitize.Summary(err.Error(), 300)})
	c.writer.mu.Unlock()
}

// errors takes the failures reported since the last call.
func (w *writer) errors() []Note {
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.errs
	w.errs = nil
	return e
}

// closeWait bounds how long Close waits for the background writes: each
// waits a bounded time for a lock (safefile.LockTimeout), but a queue of
// them behind a lock another process never releases must not keep elicit
// from exiting (-p's --timeout bounds every wait).
const closeWait = 15 * time.Second

func (w *writer) close() {
	w.once.Do(func() { close(w.jobs) })
	select {
	case <-w.done:
	case <-time.After(closeWait):
	}
}
