//go:build linux

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// term is elicit running full screen in a pseudo-terminal, its output
// read on a goroutine of its own, as fast as it comes, into a screen.
type term struct {
	cmd    *exec.Cmd
	master *os.File
	done   chan struct{} // closed when the reader ends (the program is gone)

	wmu sync.Mutex // one write to the terminal at a time

	mu       sync.Mutex // guards what follows
	scr      *screen
	waiter   *waiter
	ready    bool      // the status bar says "· ready"
	bytes    int64     // output read so far
	lastRead time.Time // when output last came
	dump     io.Writer
}

// waiter is a condition on the screen that the reader checks after each
// read; the time of the read that made it true is sent on ch.
type waiter struct {
	cond func(*screen) bool
	ch   chan time.Time
}

// statusReady: the status bar (the last row) says the agent is ready.
func statusReady(s *screen) bool { return strings.Contains(s.row(s.h-1), "· ready") }

// startTerm runs argv in a cols x rows pseudo-terminal as its controlling
// terminal, in a session of its own, with env added to its environment.
func startTerm(argv, env []string, cols, rows int, dump io.Writer) (*term, error) {
	master, slave, err := openPTY()
	if err != nil {
		return nil, err
	}
	if err := setSize(master, cols, rows); err != nil {
		master.Close()
		slave.Close()
		return nil, fmt.Errorf("TIOCSWINSZ: %w", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(termEnv(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		master.Close()
		slave.Close()
		return nil, err
	}
	slave.Close() // the child has it; the master reads EIO once it is gone
	t := &term{cmd: cmd, master: master, done: make(chan struct{}), scr: newScreen(cols, rows), dump: dump}
	t.scr.reply = func(b string) { go t.write(b) } // never block the reader
	go t.read()
	return t, nil
}

// termEnv is this environment as a plain xterm sees it: TERM=xterm-256color
// and nothing that names another terminal or multiplexer.
func termEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "TERM"), strings.HasPrefix(k, "TMUX"), k == "COLORTERM",
			k == "LINES", k == "COLUMNS", k == "SSH_TTY", k == "WT_SESSION", k == "STY":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "TERM=xterm-256color")
}

func (t *term) read() {
	defer close(t.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := t.master.Read(buf)
		now := time.Now()
		if n > 0 {
			t.mu.Lock()
			if t.dump != nil {
				t.dump.Write(buf[:n])
			}
			t.bytes += int64(n)
			t.lastRead = now
			t.scr.Write(buf[:n])
			t.ready = statusReady(t.scr)
			if w := t.waiter; w != nil && w.cond(t.scr) {
				w.ch <- now
				t.waiter = nil
			}
			t.mu.Unlock()
		}
		if err != nil {
			return // EIO: the last holder of the slave closed it
		}
	}
}

func (t *term) write(b string) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	_, err := io.WriteString(t.master, b)
	return err
}

func (t *term) isReady() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ready
}

// arm registers cond; it fails when cond already holds, so a draw can
// only be credited to what is written after.
func (t *term) arm(cond func(*screen) bool) (chan time.Time, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cond(t.scr) {
		return nil, errors.New("the condition held before the key was typed")
	}
	ch := make(chan time.Time, 1)
	t.waiter = &waiter{cond: cond, ch: ch}
	return ch, nil
}

// await waits for an armed condition: the time of the read that made it
// true, or an error after timeout or when the program ends.
func (t *term) await(ch chan time.Time, timeout time.Duration) (time.Time, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case at := <-ch:
		return at, nil
	case <-timer.C:
	case <-t.done:
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.waiter = nil
	select {
	case at := <-ch: // it came in just now
		return at, nil
	default:
	}
	select {
	case <-t.done:
		return time.Time{}, errors.New("elicit exited")
	default:
		return time.Time{}, fmt.Errorf("not on screen within %v", timeout)
	}
}

// disarm drops the armed condition.
func (t *term) disarm() {
	t.mu.Lock()
	t.waiter = nil
	t.mu.Unlock()
}

// waitFor waits until cond holds (at once when it does already).
func (t *term) waitFor(cond func(*screen) bool, timeout time.Duration) error {
	t.mu.Lock()
	ok := cond(t.scr)
	t.mu.Unlock()
	if ok {
		return nil
	}
	ch, err := t.arm(cond)
	if err != nil {
		return nil // it came true in between
	}
	_, err = t.await(ch, timeout)
	return err
}

// snapshot is the screen as text, for error messages.
func (t *term) snapshot() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.scr.String()
}

func (t *term) queries() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]int{}
	for k, v := range t.scr.queries {
		out[k] = v
	}
	return out
}

// stop ends elicit as a terminal closing would not: SIGTERM first, so it
// ends its agent and writes a CPU profile when ELICIT_CPUPROFILE is set;
// SIGKILL to its whole session after 5 s.
func (t *term) stop() {
	_ = t.cmd.Process.Signal(syscall.SIGTERM)
	exited := make(chan struct{})
	go func() { t.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	select {
	case <-t.done:
	case <-time.After(2 * time.Second):
		// A child still holds the slave: end the session's processes.
		_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	}
	t.master.Close()
}

// schedStat sums /proc/PID/task/*/schedstat over pid and its children
// (the agent): CPU time on a core and time spent runnable, waiting in a
// run queue for one, in ns. Zero when /proc is not there.
func schedStat(pid int) (cpu, wait time.Duration) { return schedStatOf(pid, true) }

func schedStatOf(pid int, children bool) (cpu, wait time.Duration) {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
	for _, task := range tasks {
		if b, err := os.ReadFile(task + "/schedstat"); err == nil {
			var c, w int64
			if _, err := fmt.Sscan(string(b), &c, &w); err == nil {
				cpu += time.Duration(c)
				wait += time.Duration(w)
			}
		}
		if b, err := os.ReadFile(task + "/children"); err == nil && children {
			for _, f := range strings.Fields(string(b)) {
				var child int
				if _, err := fmt.Sscan(f, &child); err == nil {
					c, w := schedStat(child)
					cpu += c
					wait += w
				}
			}
		}
	}
	return cpu, wait
}
