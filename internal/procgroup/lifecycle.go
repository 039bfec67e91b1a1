package procgroup

import (
	"os/exec"
	"sync"
	"time"
)

// Lifecycle tracks every process group started through it, so that one
// call ends them all, including one whose leader is still starting up and
// one being replaced by a restart. Front ends share one (Default) and
// call Shutdown on every way out.
type Lifecycle struct {
	// Grace is how long each stage of a stop waits; 0 means DefaultGrace.
	Grace time.Duration

	mu     sync.Mutex
	groups map[*Group]struct{}
	closed bool
}

// Default is the lifecycle of this process's agents: main shuts it down
// on every exit path.
var Default = &Lifecycle{}

// Start starts cmd as the leader of a new process group and tracks the
// group from that moment. After Shutdown it refuses with ErrShutdown.
func (l *Lifecycle) Start(cmd *exec.Cmd) (*Group, error) {
	newGroup(cmd)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, ErrShutdown
	}
	// Under the lock: Shutdown either sees this group or runs before it
	// starts and so refuses it.
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	g := &Group{cmd: cmd, pgid: cmd.Process.Pid, lc: l, done: make(chan struct{}), stopped: make(chan struct{})}
	if l.groups == nil {
		l.groups = map[*Group]struct{}{}
	}
	l.groups[g] = struct{}{}
	go func() {
		g.err = cmd.Wait()
		close(g.done)
	}()
	return g, nil
}

// GraceOrDefault is Grace, or DefaultGrace when it is not set.
func (l *Lifecycle) GraceOrDefault() time.Duration {
	if l.Grace > 0 {
		return l.Grace
	}
	return DefaultGrace
}

// Shutdown refuses new groups and ends every tracked one (see Group.Stop),
// all at once; it returns when all are gone. Safe to call again, and from
// a signal handler while a front end is still running.
func (l *Lifecycle) Shutdown() {
	l.mu.Lock()
	l.closed = true
	groups := make([]*Group, 0, len(l.groups))
	for g := range l.groups {
		groups = append(groups, g)
	}
	l.mu.Unlock()
	var wg sync.WaitGroup
	for _, g := range groups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.Stop(l.GraceOrDefault())
		}()
	}
	wg.Wait()
}

// ShuttingDown reports whether Shutdown was called.
func (l *Lifecycle) ShuttingDown() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// Running is how many tracked groups have not been stopped yet.
func (l *Lifecycle) Running() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.groups)
}

func (l *Lifecycle) forget(g *Group) {
	l.mu.Lock()
	delete(l.groups, g)
	l.mu.Unlock()
}
