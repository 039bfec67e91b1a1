package procgroup

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/elicit-dev/elicit/internal/hostile"
	"github.com/elicit-dev/elicit/internal/testkit"
)

func init() {
	// escape starts a daemon in a session of its own (the role "daemon")
	// and exits once it is ready: a double fork out of any group. With
	// PROCGROUP_HOLD set it stays, as a launcher script may, until its
	// stdin ends.
	helpers["escape"] = func() {
		cmd := self("daemon")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		startReady(cmd)
		if os.Getenv("PROCGROUP_HOLD") != "" {
			_, _ = io.Copy(io.Discard, os.Stdin)
		}
	}
	// daemon ignores SIGTERM, writes its pid, says it is ready and sleeps.
	helpers["daemon"] = func() {
		signal.Ignore(syscall.SIGTERM)
		writeAtomic(os.Getenv("PROCGROUP_PIDFILE"), strconv.Itoa(os.Getpid()))
		fmt.Println("ready")
		time.Sleep(time.Hour)
	}
	// spread starts two children that leave its process group, both
	// ignoring SIGTERM: one into a group of its own in the session (as a
	// shell's job control does), one into a session of its own; it writes
	// their pids and stays.
	helpers["spread"] = func() {
		var pids []string
		for i, attr := range []*syscall.SysProcAttr{{Setpgid: true}, {Setsid: true}} {
			file := os.Getenv("PROCGROUP_PIDFILE") + strconv.Itoa(i)
			cmd := self("daemon", "PROCGROUP_PIDFILE="+file)
			cmd.SysProcAttr = attr
			startReady(cmd)
			pids = append(pids, strconv.Itoa(cmd.Process.Pid))
		}
		writeAtomic(os.Getenv("PROCGROUP_PIDFILE"), strings.Join(pids, " "))
		time.Sleep(time.Hour)
	}
	// tty-parent runs on a terminal it controls: it checks that it can
	// open /dev/tty itself, then starts tty-attack through a Lifecycle.
	helpers["tty-parent"] = func() {
		_, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		writeAtomic(os.Getenv("PROCGROUP_REPORT")+".parent", errText(err))
		lc := &Lifecycle{Grace: 200 * time.Millisecond}
		g, err := lc.Start(self("tty-attack"))
		if err != nil {
			os.Exit(3)
		}
		<-g.Done()
		lc.Shutdown()
	}
	// tty-attack attacks its controlling terminal, if it has one.
	helpers["tty-attack"] = func() {
		b, _ := json.Marshal(hostile.AttackTTY("x"))
		writeAtomic(os.Getenv("PROCGROUP_REPORT"), string(b))
	}
}

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

func writeAtomic(path, s string) {
	_ = os.WriteFile(path+".tmp", []byte(s), 0o644)
	_ = os.Rename(path+".tmp", path)
}

// readPids waits for file (written whole, by a rename) and reads the pids
// in it.
func readPids(t *testing.T, file string) []int {
	t.Helper()
	var b []byte
	testkit.Until(t, "pids in "+filepath.Base(file), func() bool {
		var err error
		b, err = os.ReadFile(file)
		return err == nil
	}, nil, nil)
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, n)
	}
	return pids
}

// killAtEnd kills pids when the test ends, whatever it found.
func killAtEnd(t *testing.T, pids ...int) {
	t.Cleanup(func() {
		for _, p := range pids {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	})
}

// Issue 27, item 1: a process started through a Lifecycle has no
// controlling terminal, though its parent has one: it cannot open
// /dev/tty, so it can neither write to the screen, nor push keys, nor
// take the foreground.
func TestStartedProcessHasNoTerminal(t *testing.T) {
	report := filepath.Join(t.TempDir(), "report")
	cmd := self("tty-parent", "PROCGROUP_REPORT="+report)
	f, err := pty.Start(cmd) // a session leader, the terminal its controlling one
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	go func() { _, _ = io_Copy(f) }()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(testkit.Hang):
		// A child that took the terminal's foreground stops its parent
		// (SIGTTOU): the report says what it did.
		_ = cmd.Process.Kill()
		t.Errorf("the parent did not end after %v", testkit.Hang)
	}
	parent, _ := os.ReadFile(report + ".parent")
	if string(parent) != "ok" {
		t.Fatalf("the parent could not open its own terminal (%q): the test proves nothing", parent)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal("no report from the child: ", err)
	}
	var r hostile.TTYReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Through || !strings.Contains(r.Open, "no such device") {
		t.Errorf("the child reached the terminal: %+v", r)
	}
}

// io_Copy drains the terminal so that nothing blocks on it.
func io_Copy(f *os.File) (int64, error) {
	buf := make([]byte, 4096)
	var n int64
	for {
		m, err := f.Read(buf)
		n += int64(m)
		if err != nil {
			return n, err
		}
	}
}

// Stop ends members that left the process group for another group of the
// session, or for a session of their own while still a member's child.
func TestStopEndsMembersOutsideTheGroup(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	lc := &Lifecycle{Grace: 200 * time.Millisecond}
	g, err := lc.Start(self("spread", "PROCGROUP_PIDFILE="+pidfile))
	if err != nil {
		t.Fatal(err)
	}
	pids := readPids(t, pidfile)
	killAtEnd(t, pids...)
	for _, p := range pids {
		if !running(t, p) {
			t.Fatalf("%d is not running", p)
		}
	}
	g.Stop(lc.GraceOrDefault())
	for _, p := range pids {
		if running(t, p) {
			st, _ := exec.Command("ps", "-o", "pid,ppid,pgid,sid,stat", "-p", strconv.Itoa(p)).CombinedOutput()
			t.Errorf("%d survived Stop:\n%s", p, st)
		}
	}
}

// Issue 27, item 6: a process that left its session and lost its parent
// (setsid, double fork) is ended by Shutdown, SIGTERM ignored or not; one
// the user's own command left behind while KeepUserSessions ran is not.
func TestShutdownEndsStrays(t *testing.T) {
	start := func(t *testing.T, lc *Lifecycle, viaLifecycle bool) int {
		pidfile := filepath.Join(t.TempDir(), "pid")
		var pid int
		if viaLifecycle {
			g, err := lc.Start(self("escape", "PROCGROUP_PIDFILE="+pidfile))
			if err != nil {
				t.Fatal(err)
			}
			testkit.Recv(t, g.Done(), "exit of the launcher")
			pid = readPids(t, pidfile)[0]
			killAtEnd(t, pid)
		} else {
			// The user's launcher stays until its daemon's session was
			// noted as the user's, then exits.
			cmd := self("escape", "PROCGROUP_PIDFILE="+pidfile, "PROCGROUP_HOLD=1")
			hold, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid = readPids(t, pidfile)[0]
			killAtEnd(t, pid)
			testkit.Until(t, "the daemon's session noted as the user's", func() bool { return lc.keptSession(pid) }, nil, nil)
			hold.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatal(err)
			}
		}
		if !running(t, pid) {
			t.Fatalf("the daemon %d is not running", pid)
		}
		if pp := ppid(t, pid); pp != os.Getpid() {
			t.Fatalf("the daemon's parent is %d, not this process (%d): no reaper", pp, os.Getpid())
		}
		return pid
	}
	t.Run("agent", func(t *testing.T) {
		lc := &Lifecycle{Grace: 200 * time.Millisecond, Strays: true}
		pid := start(t, lc, true)
		lc.Shutdown()
		if running(t, pid) {
			t.Errorf("the stray %d survived Shutdown", pid)
		}
	})
	t.Run("user", func(t *testing.T) {
		lc := &Lifecycle{Grace: 200 * time.Millisecond, Strays: true}
		stop := lc.KeepUserSessions()
		pid := start(t, lc, false) // noted while its launcher ran
		stop()
		lc.Shutdown()
		if !running(t, pid) {
			t.Errorf("the user's daemon %d was ended", pid)
		}
	})
}

// keptSession reports whether KeepUserSessions noted session sid.
func (l *Lifecycle) keptSession(sid int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.kept[sid]
	return ok
}

// ppid is pid's parent, from /proc.
func ppid(t *testing.T, pid int) int {
	t.Helper()
	p, ok := readStat(strconv.Itoa(pid))
	if !ok {
		t.Fatalf("no process %d", pid)
	}
	return p.ppid
}
