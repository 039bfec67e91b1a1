//go:build unix

package procgroup

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// The test binary doubles as the processes: PROCGROUP_TEST=leader starts a
// child in its own group (which ignores SIGTERM with PROCGROUP_IGNORE=1),
// waits until the child says it is ready, writes the child's pid to
// PROCGROUP_PIDFILE, and exits.
func TestMain(m *testing.M) {
	switch os.Getenv("PROCGROUP_TEST") {
	case "leader":
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "PROCGROUP_TEST=child")
		startReady(cmd)
		_ = os.WriteFile(os.Getenv("PROCGROUP_PIDFILE"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
		os.Exit(0)
	case "child":
		if os.Getenv("PROCGROUP_IGNORE") != "" {
			signal.Ignore(syscall.SIGTERM)
		}
		fmt.Println("ready")
		time.Sleep(time.Hour)
		os.Exit(0)
	default:
		if f := helpers[os.Getenv("PROCGROUP_TEST")]; f != nil {
			f()
			os.Exit(0)
		}
	}
	testkit.SkipRaceExitSleep() // the children this binary starts exit at once
	os.Exit(m.Run())
}

// startReady starts cmd, a role of the test binary that prints a line
// once it is ready, and returns when it did (or died first). A role
// exits 3 when it cannot start one.
func startReady(cmd *exec.Cmd) {
	ready, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		os.Exit(3)
	}
	_, _ = bufio.NewReader(ready).ReadString('\n')
}

// helpers are more roles of the test binary, by PROCGROUP_TEST.
var helpers = map[string]func(){}

// self is the test binary in role, with env added.
func self(role string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), "PROCGROUP_TEST="+role), env...)
	return cmd
}

// leader starts the test binary as a group leader that leaves a child.
func leader(t *testing.T, lc *Lifecycle, ignoreTerm bool) (*Group, int) {
	t.Helper()
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PROCGROUP_TEST=leader", "PROCGROUP_PIDFILE="+pidfile)
	if ignoreTerm {
		cmd.Env = append(cmd.Env, "PROCGROUP_IGNORE=1")
	}
	g, err := lc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	<-g.Done() // the leader exits first, its child stays
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(string(b))
	return g, child
}

// running reports, from ps, whether pid runs (a zombie does not).
func running(t *testing.T, pid int) bool {
	out, _ := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	s := strings.TrimSpace(string(out))
	return s != "" && !strings.HasPrefix(s, "Z")
}

func TestStopEndsTheGroupAfterItsLeader(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		t.Run(fmt.Sprint("ignoreTerm=", ignore), func(t *testing.T) {
			lc := &Lifecycle{Grace: 200 * time.Millisecond}
			g, child := leader(t, lc, ignore)
			if !running(t, child) || !g.Live() {
				t.Fatal("the child is not running")
			}
			g.Stop(lc.GraceOrDefault())
			if running(t, child) || g.Live() {
				t.Errorf("child %d survived Stop", child)
			}
			if lc.Running() != 0 {
				t.Error("the group is still tracked")
			}
		})
	}
}

func TestShutdownEndsAllAndRefusesNew(t *testing.T) {
	lc := &Lifecycle{Grace: 200 * time.Millisecond}
	_, a := leader(t, lc, true)
	_, b := leader(t, lc, false)
	lc.Shutdown()
	for _, pid := range []int{a, b} {
		if running(t, pid) {
			t.Errorf("%d survived Shutdown", pid)
		}
	}
	if _, err := lc.Start(exec.Command("true")); err != ErrShutdown {
		t.Errorf("Start after Shutdown: %v", err)
	}
	lc.Shutdown() // again: nothing left, returns
}

func TestTrapSignals(t *testing.T) {
	got := make(chan os.Signal, 1)
	stop := TrapSignals(context.Background(), func(s os.Signal) { got <- s }, syscall.SIGHUP)
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	if s := testkit.Recv(t, got, "call of the handler"); s != syscall.SIGHUP {
		t.Errorf("got %v", s)
	}
	if c := ExitCode(syscall.SIGTERM); c != 143 {
		t.Errorf("ExitCode(SIGTERM) = %d", c)
	}
}
