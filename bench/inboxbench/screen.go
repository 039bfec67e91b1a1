package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// screen is `elicit inbox` (its full screen) on a pseudo-terminal of
// screenCols x screenRows, whose output goes through a terminal emulator
// (charmbracelet/x/vt, as the root package's terminal tests read elicit):
// a full screen redraws only the cells that change, so what it shows is
// read off the emulator's screen, never off the byte stream.
type screen struct {
	cmd  *exec.Cmd
	pty  *os.File
	done chan struct{} // closed when the reader ends

	mu      sync.Mutex
	emu     *vt.Emulator
	text    string        // the screen after the last read
	read    time.Time     // when the last read returned
	written int64         // bytes the program wrote in all
	wake    chan struct{} // closed and replaced by each read
}

const screenCols, screenRows = 120, 40

// startScreen runs bin inbox with env on a new terminal.
func startScreen(bin string, env []string) (*screen, error) {
	cmd := exec.Command(bin, "inbox")
	cmd.Env = append(env, "TERM=xterm-256color")
	f, err := pty.StartWithAttrs(cmd, &pty.Winsize{Rows: screenRows, Cols: screenCols}, &syscall.SysProcAttr{Setsid: true, Setctty: true})
	if err != nil {
		return nil, err
	}
	s := &screen{cmd: cmd, pty: f, done: make(chan struct{}), emu: vt.NewEmulator(screenCols, screenRows)}
	s.emu.SetScrollbackSize(1)
	// The emulator's answers to the program's queries are dropped, as the
	// root package's terminal tests do: none of them blocks the program.
	go io.Copy(io.Discard, s.emu)
	go func() {
		defer close(s.done)
		_, _ = io.Copy(s, f) // until the terminal hangs up
	}()
	return s, nil
}

// Write takes one read of the program's output.
func (s *screen) Write(p []byte) (int, error) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.emu.Write(p)
	s.text, s.read = s.emu.String(), now
	s.written += int64(len(p))
	if s.wake != nil {
		close(s.wake)
		s.wake = nil
	}
	return len(p), nil
}

// waitFor waits until the screen shows text, and returns when the read
// that drew it returned; it fails once deadline passes (a hang) or the
// program ends.
func (s *screen) waitFor(text string, deadline time.Time) (time.Time, error) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		s.mu.Lock()
		if strings.Contains(s.text, text) {
			at := s.read
			s.mu.Unlock()
			return at, nil
		}
		if s.wake == nil {
			s.wake = make(chan struct{})
		}
		wake := s.wake
		s.mu.Unlock()
		select {
		case <-wake:
		case <-s.done:
			return time.Time{}, errors.New("elicit inbox ended; its screen:\n" + s.String())
		case <-timer.C:
			return time.Time{}, errors.New("the inbox's screen never showed " + text + "; it shows:\n" + s.String())
		}
	}
}

// Written is how many bytes the program wrote to its terminal so far.
func (s *screen) Written() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.written
}

// String is what the screen shows.
func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.text
}

// close quits the program as a person does (Ctrl+C at the list), killing
// it if it has not exited within screenHang, and closes its terminal.
func (s *screen) close() {
	exited := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(exited) }()
	_, _ = s.pty.Write([]byte{3})
	select {
	case <-exited:
	case <-time.After(screenHang):
		_ = s.cmd.Process.Kill()
		<-exited
	}
	s.pty.Close()
	<-s.done
	s.emu.Close()
}
