//go:build unix

package acpconn

import (
	"os"
	"syscall"
)

// drainPipe reads what r holds now, without waiting for more, giving each
// piece to got; true at end of file. os.Pipe's ends are non-blocking, so a
// raw read says EAGAIN once the pipe is empty.
func drainPipe(r *os.File, buf []byte, got func([]byte)) (eof bool) {
	rc, err := r.SyscallConn()
	if err != nil {
		return false
	}
	_ = rc.Read(func(fd uintptr) bool {
		for {
			n, err := syscall.Read(int(fd), buf)
			if n > 0 {
				got(buf[:n])
				continue
			}
			if err == syscall.EINTR {
				continue
			}
			eof = err == nil // n == 0: every writer closed the pipe
			return true      // empty (EAGAIN), at end, or an error: stop
		}
	})
	return eof
}
