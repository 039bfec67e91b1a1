//go:build unix

package cmd

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// watchHangup calls onHangup once if the terminal f is hung up (closed
// under elicit), until stop. A closed terminal sends SIGHUP only to its
// session's leader, and to the foreground group when the leader exits: a
// shell that ignores SIGHUP (started under nohup) never exits, elicit gets
// no signal, and bubbletea takes the end of its input for a quiet EOF. So
// the terminal itself is watched: poll(2) with no events asked reports
// POLLHUP alone, and blocks without waking until then (or until stop
// writes to the pipe beside it). Hand-written: no library watches a
// terminal for a hang-up.
func watchHangup(f *os.File, onHangup func()) (stop func()) {
	r, w, err := os.Pipe()
	if err != nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer r.Close()
		fds := []unix.PollFd{{Fd: int32(f.Fd()), Events: 0}, {Fd: int32(r.Fd()), Events: unix.POLLIN}}
		for {
			fds[0].Revents, fds[1].Revents = 0, 0
			_, err := unix.Poll(fds, -1)
			if errors.Is(err, unix.EINTR) {
				continue
			}
			if err != nil || fds[1].Revents != 0 {
				return
			}
			if fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0 {
				onHangup()
				return
			}
		}
	}()
	return func() {
		w.Close() // the read end sees end of file: the poll returns
		<-done
	}
}
