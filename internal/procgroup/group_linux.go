package procgroup

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// members are the running processes of the group led by pgid: those in its
// process group or in its session (a shell with job control puts each job
// in a group of its own inside the session), and every descendant of
// theirs, even one that started a session of its own and so left both.
// A process that left the session and lost its parent is no longer
// anyone's descendant here: on this process's side it is a stray (see
// strays_linux.go).
func (t *table) members(pgid int) []proc {
	set := map[int]bool{}
	for pid, p := range t.procs {
		if p.pgid == pgid || p.sid == pgid {
			set[pid] = true
		}
	}
	t.descendants(set)
	var out []proc
	for pid := range set {
		if p := t.procs[pid]; p.running() {
			out = append(out, p)
		}
	}
	return out
}

// signalGroup signals every member (see sweep), and every process seen
// as a member by an earlier signal that still runs: a member that left the
// session is found only through its parent, which the first signal may
// have ended.
func signalGroup(g *Group, sig syscall.Signal) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.seen == nil {
		g.seen = map[int]proc{}
	}
	sweep(func(t *table) []proc { return t.members(g.pgid) }, unix.Signal(sig), g.seen)
	_ = syscall.Kill(-g.pgid, sig) // if /proc cannot be read
}

// groupLive reports whether a member of the group, or a process seen as
// one when it was signalled, runs (a zombie runs nothing; this machine's
// init may reap late). Without /proc it is what kill(-pgid, 0) says.
func groupLive(g *Group) bool {
	t, err := readTable()
	if err != nil {
		return !errors.Is(syscall.Kill(-g.pgid, 0), syscall.ESRCH)
	}
	if len(t.members(g.pgid)) > 0 {
		return true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return t.anyRunning(g.seen)
}
