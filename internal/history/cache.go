package history

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
)

// answersCache is the last answers.json decoded, with the identity of the
// file it came from. A form asks the history twice (its answers, then
// suggestions for each field), and -p answers thousands of forms: reading
// and decoding the file each time was a quarter of the process's CPU.
type answersCache struct {
	mu   sync.Mutex
	info fs.FileInfo
	a    *answers
}

// readAnswers returns the answers file's content, decoded again only when
// os.Stat shows another file: every write replaces it (a rename: another
// inode), so a write by this process or another one is always seen. The
// result is shared: callers only read it.
func (s *Store) readAnswers() (*answers, error) {
	path := s.path(answersFile)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &answers{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	c := &s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.a != nil && sameFile(c.info, fi) {
		return c.a, nil
	}
	var a answers
	if err := read(path, &a); err != nil {
		return nil, err
	}
	// If the file was replaced between the Stat and the read, the next
	// Stat differs from fi and reads it again.
	c.info, c.a = fi, &a
	return &a, nil
}

func sameFile(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}
