//go:build unix

package history

import (
	"fmt"
	"os"
	"syscall"

	"github.com/elicit-dev/elicit/internal/safefile"
)

// nonBlock opens a FIFO put in a state file's place without waiting.
const nonBlock = syscall.O_NONBLOCK

// lock takes an exclusive flock on the file at path (made if missing) and
// returns its release; it waits a bounded time for another process. The
// kernel drops the lock if the process dies.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW|nonBlock, 0o600)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file; remove it", path)
	}
	unlock, err := safefile.Lock(f, safefile.LockTimeout)
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		unlock()
		f.Close()
	}, nil
}
