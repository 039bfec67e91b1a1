package hostile

import (
	"errors"
	"os"
	"os/signal"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TTYReport is what AttackTTY managed: "ok", or the error that stopped
// each attack. Through is true when any attack got through.
type TTYReport struct {
	Open, Write, TIOCSTI, Foreground string
	Through                          bool
}

// AttackTTY does, to its controlling terminal, the three things a process
// that keeps the user's terminal can do: write to the screen past the
// client (a title, the clipboard, a clear), push keys into the client's
// input with TIOCSTI (keys: say, the option that allows a permission), and
// make its own process group the terminal's foreground (the client then
// stops at its next read or write). It tries /dev/tty, then its standard
// descriptors, in case one is the terminal.
func AttackTTY(keys string) TTYReport {
	r := TTYReport{Open: "not tried", Write: "not tried", TIOCSTI: "not tried", Foreground: "not tried"}
	note := func(field *string, err error) {
		if err == nil {
			*field, r.Through = "ok", true
		} else if *field == "not tried" || *field == errNotTTY {
			*field = err.Error()
		}
	}
	signal.Ignore(syscall.SIGTTOU) // else tcsetpgrp from a background group stops the caller
	fds := []int{0, 1, 2}
	if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err != nil {
		r.Open = err.Error()
	} else {
		defer f.Close()
		r.Open, r.Through = "ok", true
		_, werr := f.WriteString(ScreenAttack)
		note(&r.Write, werr)
		fds = append([]int{int(f.Fd())}, fds...)
	}
	for _, fd := range fds {
		if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err != nil {
			note(&r.TIOCSTI, errors.New(errNotTTY))
			note(&r.Foreground, errors.New(errNotTTY))
			continue
		}
		var err error
		for i := 0; i < len(keys) && err == nil; i++ {
			b := keys[i] // TIOCSTI takes a char *
			if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.TIOCSTI, uintptr(unsafe.Pointer(&b))); e != 0 {
				err = e
			}
		}
		note(&r.TIOCSTI, err)
		note(&r.Foreground, unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, syscall.Getpgrp()))
	}
	return r
}

// errNotTTY says that no descriptor tried was a terminal.
const errNotTTY = "no terminal among the descriptors"
