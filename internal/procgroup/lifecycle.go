package procgroup

import (
	"os/exec"
	"sync"
	"time"
)

// Lifecycle tracks every process group started through it, so that one
// call ends them all, including one whose leader is still starting up and
// one being replaced by a restart. Everything elicit starts shares one
// (Default), which the command tree shuts down in one place, on every way
// out (cmd.Main); a caught signal may shut it down earlier.
type Lifecycle struct {
	// Grace is how long each stage of a stop waits; 0 means DefaultGrace.
	Grace time.Duration
	// Strays makes this process, from its first Start, the reaper of what
	// its groups leave behind (Linux), and Shutdown end every descendant
	// of it outside its own session (see strays_linux.go). Only the
	// lifecycle that ends the program sets it: Default does.
	Strays bool

	mu     sync.Mutex
	groups map[*Group]struct{}
	closed bool
	kept   map[int]uint64 // the user's sessions (KeepUserSessions): sid -> its leader's start
}

// Default is the lifecycle of this process's agents, their terminal
// commands, hooks and MCP servers: cmd.Main shuts it down on every exit
// path, and it ends the strays too.
var Default = &Lifecycle{Strays: true}

// Start starts cmd as the leader of a new process group and tracks the
// group from that moment. After Shutdown it refuses with ErrShutdown.
func (l *Lifecycle) Start(cmd *exec.Cmd) (*Group, error) {
	newGroup(cmd)
	if l.Strays {
		contain()
	}
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
// and with Strays every stray, all at once; it returns when all are gone.
// Safe to call again, and from a signal handler while a front end is
// still running.
func (l *Lifecycle) Shutdown() {
	l.mu.Lock()
	l.closed = true
	groups := make([]*Group, 0, len(l.groups))
	pgids := make([]int, 0, len(l.groups))
	for g := range l.groups {
		groups, pgids = append(groups, g), append(pgids, g.pgid)
	}
	l.mu.Unlock()
	var wg sync.WaitGroup
	for _, g := range groups {
		wg.Go(func() { g.Stop(l.GraceOrDefault()) })
	}
	if l.Strays {
		wg.Go(func() { l.endStrays(l.GraceOrDefault(), pgids) })
	}
	wg.Wait()
	if l.Strays { // what left a group while it was being stopped
		l.endStrays(l.GraceOrDefault(), nil)
	}
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
