package fullscreen

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"

	"github.com/elicit-dev/elicit/internal/safefile"
)

// spool is where the transcript's older text goes: a private scratch file
// in the state directory (safefile.Scratch: mode 0600, its name removed
// at once on Unix, so it is gone when elicit ends however it ends),
// written on a goroutine of its own so that no frame waits for a disk,
// and read back where a view or an export needs it. Text is written in
// the order it was handed over, so a byte's place in the file is its
// place in the transcript's log.
type spool struct {
	dir string

	mu      sync.Mutex
	idle    sync.Cond // signalled when the writer stops
	queue   []string  // text to write, in order
	running bool      // a writer goroutine is at work
	f       *os.File  // nil until the first write made it
	remove  func()
	err     error // the first failure: nothing more is written
	closed  bool

	written atomic.Int64 // bytes in the file, from its start
}

func newSpool(dir string) *spool {
	s := &spool{dir: dir}
	s.idle.L = &s.mu
	return s
}

// errSpoolClosed is a read after close.
var errSpoolClosed = errors.New("the transcript's file is closed")

// write hands text over to be written after what was handed before. It
// never waits: a goroutine writes while there is something to write.
func (s *spool) write(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil || s.closed {
		return
	}
	s.queue = append(s.queue, text)
	if !s.running {
		s.running = true
		go s.run()
	}
}

// run writes the queue out, making the file first; it ends when the queue
// is empty, or at the first failure (the text stays in memory: see
// textLog.reclaim).
func (s *spool) run() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.queue) > 0 && s.err == nil && !s.closed {
		if s.f == nil {
			s.mu.Unlock()
			f, remove, err := safefile.Scratch(s.dir, "transcript-*")
			s.mu.Lock()
			s.f, s.remove, s.err = f, remove, err
			if s.closed && f != nil {
				f.Close()
				remove()
			}
			continue
		}
		text, f := s.queue[0], s.f
		s.queue[0] = ""
		s.queue = s.queue[1:]
		s.mu.Unlock()
		_, err := f.WriteString(text)
		s.mu.Lock()
		if err != nil {
			if !s.closed {
				s.err = err
			}
			break
		}
		s.written.Add(int64(len(text)))
	}
	s.queue, s.running = nil, false
	s.idle.Broadcast()
}

// failure returns the error that stopped the writes, if one did.
func (s *spool) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// wait returns once nothing is being written (for tests and the bench).
func (s *spool) wait() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.running {
		s.idle.Wait()
	}
}

// readAt reads len(p) bytes written at off.
func (s *spool) readAt(p []byte, off int64) error {
	s.mu.Lock()
	f, closed := s.f, s.closed
	s.mu.Unlock()
	if closed || f == nil {
		return errSpoolClosed
	}
	_, err := f.ReadAt(p, off)
	return err
}

// close lets the file go (a write under way fails, quietly).
func (s *spool) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	if s.f != nil {
		s.f.Close()
		s.remove()
	}
}
