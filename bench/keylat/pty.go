//go:build linux

package main

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair and returns its master (pollable by
// the Go runtime) and its slave. It is written by hand because no pty
// library is in go.mod (only golang.org/x/sys/unix): posix_openpt is
// open(/dev/ptmx); grantpt has nothing to do on Linux's devpts (the slave
// is created with the caller's uid and mode 0620); unlockpt is ioctl
// TIOCSPTLCK with 0; ptsname is ioctl TIOCGPTN.
func openPTY() (master, slave *os.File, err error) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("posix_openpt: %w", err)
	}
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil { // unlockpt
		unix.Close(fd)
		return nil, nil, fmt.Errorf("unlockpt: %w", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN) // ptsname
	if err != nil {
		unix.Close(fd)
		return nil, nil, fmt.Errorf("ptsname: %w", err)
	}
	name := "/dev/pts/" + strconv.FormatUint(uint64(n), 10)
	sfd, err := unix.Open(name, unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		unix.Close(fd)
		return nil, nil, fmt.Errorf("open %s: %w", name, err)
	}
	// O_NONBLOCK on the master makes os.NewFile register it with the
	// runtime's poller: a read waits in epoll, not in a blocked thread.
	return os.NewFile(uintptr(fd), "/dev/ptmx"), os.NewFile(uintptr(sfd), name), nil
}

// setSize sets the terminal's size (TIOCSWINSZ); the kernel sends SIGWINCH
// to the foreground process group when it changes.
func setSize(f *os.File, cols, rows int) error {
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	var err error
	c, cerr := f.SyscallConn()
	if cerr != nil {
		return cerr
	}
	if cerr := c.Control(func(fd uintptr) { err = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws) }); cerr != nil {
		return cerr
	}
	return err
}
