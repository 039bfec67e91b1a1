// Package procgroup starts subprocesses as leaders of process groups of
// their own and ends those groups whole: every process in them, not just
// the leader, on every way out (quit, signal, crash of the leader).
//
//	g, err := procgroup.Default.Start(cmd) // tracked from the moment it runs
//	defer procgroup.Default.Shutdown()     // SIGTERM, grace, SIGKILL, wait until empty
//	_ = g.Stop(2 * time.Second)
package procgroup

import (
	"errors"
	"os/exec"
	"sync"
	"time"
)

// DefaultGrace is how long each stage of a stop waits: for the group to
// end after SIGTERM, and again after SIGKILL.
const DefaultGrace = 2 * time.Second

// pollEvery is how often a stop looks whether the group is empty at
// first; the pause doubles up to pollMax (a look reads /proc whole). The
// kernel offers no way to wait for the members of a process group that
// are not our children, so this polls (hand-written for that reason).
const (
	pollEvery = 10 * time.Millisecond
	pollMax   = 100 * time.Millisecond
)

// backoff is the pause after one of wait.
func backoff(wait time.Duration) time.Duration { return min(2*wait, pollMax) }

// ErrShutdown is returned by Start once the Lifecycle is shutting down.
var ErrShutdown = errors.New("shutting down: no new process is started")

// Group is a process started as the leader of its own process group.
type Group struct {
	cmd  *exec.Cmd
	pgid int
	lc   *Lifecycle

	done chan struct{} // closed when the leader has been reaped
	err  error         // the leader's Wait error, valid after done

	stopOnce sync.Once
	stopped  chan struct{}

	mu   sync.Mutex
	seen map[int]proc // Linux: every process seen as a member when signalled
}

// Pgid is the group's id (the leader's pid).
func (g *Group) Pgid() int { return g.pgid }

// Cmd is the leader's command, as started.
func (g *Group) Cmd() *exec.Cmd { return g.cmd }

// Done is closed once the leader has exited and been reaped; other
// members of the group may still run (see Stop).
func (g *Group) Done() <-chan struct{} { return g.done }

// Err is the leader's exec.Cmd.Wait error; valid once Done is closed.
func (g *Group) Err() error { return g.err }

// Live reports whether the leader or any other member of the group still
// runs (a zombie runs nothing and does not count).
func (g *Group) Live() bool {
	select {
	case <-g.done:
		return groupLive(g)
	default:
		return true
	}
}

// Stop ends the whole group: SIGTERM to every member, up to grace for
// them to exit, then SIGKILL, and it returns only when no member runs and
// the leader has been reaped. It is safe to call more than once and from
// several goroutines: each call returns when the group is gone.
func (g *Group) Stop(grace time.Duration) {
	g.stopOnce.Do(func() {
		defer close(g.stopped)
		if g.Live() {
			signalGroup(g, sigTerm)
			g.waitEmpty(grace)
		}
		// SIGKILL again at each look: a member may have started another
		// process between the look and the signal.
		for wait := pollEvery; g.Live(); wait = backoff(wait) {
			signalGroup(g, sigKill)
			time.Sleep(wait)
		}
		<-g.done
		if g.lc != nil {
			g.lc.forget(g)
		}
	})
	<-g.stopped
}

// waitEmpty waits until no member runs, at most d.
func (g *Group) waitEmpty(d time.Duration) {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for wait := pollEvery; g.Live(); wait = backoff(wait) {
		select {
		case <-deadline.C:
			return
		case <-time.After(wait):
		}
	}
}
