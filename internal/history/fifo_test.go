//go:build unix

package history

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// Issue 27, case 14: a FIFO in place of a history file is refused with a
// message at once; it never hangs the start, nor a later read or write.
func TestFIFOInPlaceOfAHistoryFile(t *testing.T) {
	for _, name := range []string{answersFile, sitesFile, lockFile} {
		dir := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			s, err := Open(dir)
			if err == nil {
				err = s.RecordSite("example.com", time.Now())
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v", name, err)
			}
		case <-time.After(testkit.Hang):
			t.Fatalf("%s: a FIFO hangs the history", name)
		}
	}
}

// The files elicit writes are created private.
func TestHistoryFilesArePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RecordSite("example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, filepath.Join(dir, sitesFile)} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: %v %v", p, fi.Mode(), err)
		}
	}
}
