package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// The terminal the black-box tests run elicit on: a pseudo-terminal whose
// output is read as a terminal shows it. A full-screen program redraws
// only the cells that changed, so a sentence may be drawn in pieces and
// never appear whole in the byte stream: the output goes through a
// terminal emulator (charmbracelet/x/vt), and a test reads the screen's
// rows. Line-based output (the accessible session, -p) is also kept as
// plain text, escape sequences left out, where a line too long for a row
// still reads whole. The raw bytes stay for the escape-sequence policies.

// Rows and columns of the tests' terminal.
const termRows, termCols = 32, 100

// drained is what finish writes to the terminal after elicit exits: once
// it is read back, everything elicit wrote before it has been read.
const drained = "\x00elicit-test-drained\x00"

// terminal is elicit running on a pseudo-terminal of termCols x termRows.
type terminal struct {
	t    *testing.T
	cmd  *exec.Cmd
	pty  *os.File
	tty  string // the terminal's device, for finish's drained mark
	keep int    // keep about the last keep bytes of each record; 0: all
	done chan struct{}

	mu    sync.Mutex
	out   bytes.Buffer    // the raw bytes
	plain strings.Builder // the output with escape sequences left out
	strip *ansi.Parser    // feeds plain
	emu   *vt.Emulator
	rows  []string        // the screen after the last read
	shown strings.Builder // each row the screen showed after a read, when new
	wake  chan struct{}   // closed and replaced by each read
}

func startPTY(t *testing.T, scenario string, args ...string) *terminal {
	t.Helper()
	return startPTYWith(t, command(scenario, args...))
}

// startPTYWith starts cmd on a new terminal; what it has set of stdin,
// stdout and stderr stays.
func startPTYWith(t *testing.T, cmd *exec.Cmd) *terminal {
	t.Helper()
	return startPTYKeeping(t, cmd, 0)
}

// startPTYKeeping is startPTYWith keeping only about the last keep bytes
// of the output (0: all of it), for runs that print hundreds of MB.
func startPTYKeeping(t *testing.T, cmd *exec.Cmd, keep int) *terminal {
	t.Helper()
	f, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := pty.Setsize(f, &pty.Winsize{Rows: termRows, Cols: termCols}); err != nil {
		t.Fatal(err)
	}
	// The terminal becomes the controlling one through stdout: stdin may
	// be a file of input.
	for _, s := range []*io.Writer{&cmd.Stdout, &cmd.Stderr} {
		if *s == nil {
			*s = tty
		}
	}
	if cmd.Stdin == nil {
		cmd.Stdin = tty
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1}
	err = cmd.Start()
	tty.Close()
	if err != nil {
		f.Close()
		t.Fatal(err)
	}
	// pty's ioctls leave the master in blocking mode, where Close waits for
	// the reader below, so the terminal never hangs up: a non-blocking
	// duplicate is closed at once (closing the window, in the tests that
	// do). The duplicate is close-on-exec from the start: the parallel
	// tests' children (elicit, its agents, their daemons) inherited a
	// plain dup, held the master open, and the terminal never hung up.
	if fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0); err == nil && syscall.SetNonblock(fd, true) == nil {
		f.Close()
		f = os.NewFile(uintptr(fd), f.Name())
	}
	tm := &terminal{t: t, cmd: cmd, pty: f, tty: tty.Name(), keep: keep, done: make(chan struct{}),
		emu: vt.NewEmulator(termCols, termRows), strip: ansi.NewParser()}
	tm.emu.SetScrollbackSize(1) // rows are read after each read: none is needed
	tm.strip.SetHandler(ansi.Handler{
		Print: func(r rune) { tm.plain.WriteRune(r) },
		Execute: func(b byte) {
			if b == '\n' || b == '\t' {
				tm.plain.WriteByte(b)
			}
		},
	})
	// The emulator writes its answers to queries to a pipe, waiting for a
	// reader: they are read and dropped, as before the emulator (the tests
	// never answered a query).
	replies := tm.emu.InputPipe().(*io.PipeWriter)
	go io.Copy(io.Discard, tm.emu)
	go func() {
		defer close(tm.done)
		buf := make([]byte, 32*1024)
		for {
			n, err := f.Read(buf)
			tm.feed(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		f.Close()
		<-tm.done
		replies.Close() // ends the copy above
	})
	return tm
}

// feed takes what the terminal read: the raw bytes, the plain text, the
// screen, and wakes the waits.
func (tm *terminal) feed(p []byte) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.out.Write(p)
	tm.emu.Write(p)
	for _, b := range p {
		tm.strip.Advance(b)
	}
	// A row is new when the screen did not show it before, wherever: a
	// row that only moved (the screen scrolled) is not.
	before := make(map[string]bool, len(tm.rows))
	for _, r := range tm.rows {
		before[r] = true
	}
	rows := strings.Split(tm.emu.String(), "\n")
	for i, r := range rows {
		r = strings.TrimRight(r, "\r ")
		rows[i] = r
		if r != "" && !before[r] {
			tm.shown.WriteString(r)
			tm.shown.WriteByte('\n')
		}
	}
	tm.rows = rows
	if tm.keep > 0 {
		if tm.out.Len() > 2*tm.keep {
			tm.out.Next(tm.out.Len() - tm.keep)
		}
		trimBuilder(&tm.plain, tm.keep)
		trimBuilder(&tm.shown, tm.keep)
	}
	if tm.wake != nil {
		close(tm.wake)
		tm.wake = nil
	}
}

// trimBuilder keeps about the last keep bytes of b once it holds twice as
// many.
func trimBuilder(b *strings.Builder, keep int) {
	if b.Len() > 2*keep {
		s := b.String()[b.Len()-keep:]
		b.Reset()
		b.WriteString(s)
	}
}

// changed returns a channel closed by the next read.
func (tm *terminal) changed() <-chan struct{} {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if tm.wake == nil {
		tm.wake = make(chan struct{})
	}
	return tm.wake
}

// screen is what the terminal shows now, row by row.
func (tm *terminal) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return strings.Join(tm.rows, "\n")
}

// text is everything the terminal showed so far: the plain text of the
// output, then each row the screen showed after a read, once.
func (tm *terminal) text() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.plain.String() + "\n" + tm.shown.String()
}

// textMark is how much the terminal showed so far, for waitSince (not
// for a terminal that keeps only the last of its output).
type textMark struct{ plain, shown int }

func (tm *terminal) mark() textMark {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return textMark{tm.plain.Len(), tm.shown.Len()}
}

// since is what the terminal showed after m: the plain text and the rows
// the screen did not show before.
func (tm *terminal) since(m textMark) string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	plain, shown := tm.plain.String(), tm.shown.String()
	return plain[min(m.plain, len(plain)):] + "\n" + shown[min(m.shown, len(shown)):]
}

// seen reports whether the terminal showed one of ss so far.
func (tm *terminal) seen(ss ...string) bool { return containsAny(tm.text(), ss) }

func containsAny(s string, ss []string) bool {
	for _, x := range ss {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// waitFor waits until the terminal showed one of ss.
func (tm *terminal) waitFor(ss ...string) {
	tm.t.Helper()
	tm.waitUntil("a screen with "+strings.Join(ss, " or "), func() bool { return tm.seen(ss...) })
}

// waitSince waits until the output after m holds one of ss, as plain
// text: for line-based output (the accessible session), where a row
// that changed (a prompt, then the answer echoed after it) is not a new
// line.
func (tm *terminal) waitSince(m textMark, ss ...string) {
	tm.t.Helper()
	tm.waitUntil("output with "+strings.Join(ss, " or "), func() bool {
		tm.mu.Lock()
		defer tm.mu.Unlock()
		return containsAny(tm.plain.String()[min(m.plain, tm.plain.Len()):], ss)
	})
}

// waitScreen waits until cond holds of the screen as it is.
func (tm *terminal) waitScreen(what string, cond func(screen string) bool) {
	tm.t.Helper()
	tm.waitUntil(what, func() bool { return cond(tm.screen()) })
}

// waitUntil waits until cond holds, checking it after each read; it fails
// the test once testkit.Hang has passed, showing the screen.
func (tm *terminal) waitUntil(what string, cond func() bool) {
	tm.t.Helper()
	testkit.Until(tm.t, what, cond, tm.changed, func() string {
		return "the screen:\n" + tm.screen() + "\nthe end of the output as text:\n" + tail(tm.text(), 3000)
	})
}

// tail is the last n bytes of s.
func tail(s string, n int) string { return s[max(0, len(s)-n):] }

// send types s.
func (tm *terminal) send(s string) {
	if _, err := tm.pty.WriteString(s); err != nil {
		tm.t.Errorf("typing %q: %v", s, err)
	}
}

// finish waits for elicit to end and returns everything it wrote. It
// fails the test when elicit hangs.
func (tm *terminal) finish() []byte {
	tm.t.Helper()
	waitExit(tm.t, tm.cmd, tm.screen)
	// Once nothing holds the terminal, the reader reads all that is left
	// and ends. Whatever still holds it (nothing should), what elicit
	// wrote is read once the drained mark written after it is.
	if w, err := os.OpenFile(tm.tty, os.O_WRONLY|unix.O_NOCTTY, 0); err == nil {
		w.WriteString(drained)
		w.Close()
	}
	tm.waitUntil("the end of the output", func() bool {
		tm.mu.Lock()
		defer tm.mu.Unlock()
		return isClosed(tm.done)() || bytes.Contains(tm.out.Bytes(), []byte(drained))
	})
	tm.pty.Close()
	<-tm.done
	tm.mu.Lock()
	defer tm.mu.Unlock()
	out, _, _ := bytes.Cut(tm.out.Bytes(), []byte(drained))
	return bytes.Clone(out)
}
