//go:build unix

package acpconn

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// signalName is the signal's name as people know it: SIGKILL, SIGSEGV.
func signalName(s syscall.Signal) string {
	if n := unix.SignalName(s); n != "" {
		return n
	}
	return s.String()
}
