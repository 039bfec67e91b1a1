//go:build unix

package safefile

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// LockTimeout is how long Lock waits for another process's lock.
const LockTimeout = 10 * time.Second

// Lock takes an exclusive flock on f, waiting at most timeout for another
// holder: a process that holds the lock forever (or a hostile one) must
// not hang elicit, whose every wait is bounded. flock has no timed form,
// so it is tried without blocking, every few milliseconds.
func Lock(f *os.File, timeout time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(timeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return func() { unix.Flock(int(f.Fd()), unix.LOCK_UN) }, nil
		case err == unix.EINTR:
			continue
		case err != unix.EWOULDBLOCK:
			return nil, err
		case time.Now().After(deadline):
			return nil, fmt.Errorf("%s is locked by another process (waited %s)", f.Name(), timeout)
		}
		time.Sleep(wait)
	}
}
