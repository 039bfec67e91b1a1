//go:build linux

package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// echo is the floor (-mode floor, run as "keylat -echo" in the
// pseudo-terminal): a program that does nothing but draw what keylat
// waits for, a status bar that says "· ready" and a prompt "› ", and
// write each key into the prompt the moment it reads it (ctrl+u clears
// the line). Its latency is the harness's own: the pty both ways, two
// process wake-ups and the emulator.
func echo() error {
	const fd = 0
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return err
	}
	raw := *old // cfmakeraw
	raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	raw.Oflag &^= unix.OPOST
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	raw.Cflag &^= unix.CSIZE | unix.PARENB
	raw.Cflag |= unix.CS8
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &raw); err != nil {
		return err
	}
	defer unix.IoctlSetTermios(fd, unix.TCSETS, old)
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	if err != nil {
		return err
	}
	prompt := fmt.Sprintf("\x1b[%dH\x1b[2K› ", ws.Row-1)
	fmt.Fprintf(os.Stdout, "\x1b[2J\x1b[%dHfloor · ready%s", ws.Row, prompt)
	buf := make([]byte, 256)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return nil
		}
		out := make([]byte, 0, n+16)
		for _, c := range buf[:n] {
			switch {
			case c == 0x15: // ctrl+u
				out = append(out, prompt...)
			case c == 3 || c == 4: // ctrl+c, ctrl+d
				return nil
			case c >= 0x20 && c < 0x7f:
				out = append(out, c)
			}
		}
		if _, err := os.Stdout.Write(out); err != nil {
			return nil
		}
	}
}
