//go:build unix

package audit

import (
	"os"

	"golang.org/x/sys/unix"
)

// lock takes an exclusive flock on the log for one write.
func lock(f *os.File) (func(), error) {
	var err error
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return func() { unix.Flock(int(f.Fd()), unix.LOCK_UN) }, nil
}
