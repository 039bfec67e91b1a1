//go:build unix

package history

import "github.com/elicit-dev/elicit/internal/safefile"

// lock takes an exclusive flock on the file at path (made if missing,
// mode 0600; never through a symbolic link, never a FIFO: safefile.Append)
// and returns its release; it waits a bounded time for another process.
// The kernel drops the lock if the process dies.
func lock(path string) (func(), error) {
	f, err := safefile.Append(path, 0o600)
	if err != nil {
		return nil, err
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
