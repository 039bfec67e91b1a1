package procgroup

import (
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// A process can leave its group's session (setsid) and lose its parent
// (a double fork): it is then no member of any group, and without more the
// kernel hands it to init, where it outlives elicit. A Lifecycle with
// Strays set makes this process their reaper instead
// (PR_SET_CHILD_SUBREAPER): they stay its descendants, and Shutdown ends
// every descendant outside this process's own session. Processes in that
// session are the user's (a terminal sign-in command, a browser), never an
// agent's: every group starts a session of its own, and no process can
// join a session it was not born in.

var subreaper sync.Once

// contain makes this process the reaper of what its descendants leave
// behind; a kernel without it (before 3.4) leaves them to init.
func contain() {
	subreaper.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

// strays lists the running descendants of this process outside its own
// session and outside the kept sessions, leaving out the members of the
// groups in skip (their Stop ends them).
func (l *Lifecycle) strays(t *table, skip []int) []proc {
	self := os.Getpid()
	own, err := unix.Getsid(0)
	if err != nil {
		return nil
	}
	set := map[int]bool{self: true}
	t.descendants(set)
	delete(set, self)
	for _, pgid := range skip {
		for _, m := range t.members(pgid) {
			delete(set, m.pid)
		}
	}
	kept := l.keptSessions(t, own)
	var out []proc
	for pid := range set {
		p := t.procs[pid]
		if p.running() && p.sid != own && !kept[p.sid] && !t.underOwnSession(p, self, own) {
			out = append(out, p)
		}
	}
	return out
}

// underOwnSession reports whether p descends from a process of this
// process's own session other than this process: a user's command (a
// sign-in command that opened a browser through a launcher of its own
// session) and what it started.
func (t *table) underOwnSession(p proc, self, own int) bool {
	for seen := 0; p.ppid != self && seen < len(t.procs); seen++ {
		parent, ok := t.procs[p.ppid]
		if !ok {
			return false
		}
		if parent.sid == own {
			return true
		}
		p = parent
	}
	return false
}

// endStrays ends the strays as Stop ends a group: SIGTERM, up to grace for
// them to go, then SIGKILL until none runs. skip is as for strays.
func (l *Lifecycle) endStrays(grace time.Duration, skip []int) {
	find := func(t *table) []proc { return l.strays(t, skip) }
	live := func() bool {
		t, err := readTable()
		return err == nil && len(find(t)) > 0
	}
	if !live() {
		return
	}
	seen := map[int]proc{}
	sweep(find, unix.SIGTERM, seen)
	deadline := time.Now().Add(grace)
	for wait := pollEvery; live() && time.Now().Before(deadline); wait = backoff(wait) {
		time.Sleep(wait)
	}
	for wait := pollEvery; live(); wait = backoff(wait) {
		sweep(find, unix.SIGKILL, seen)
		time.Sleep(wait)
	}
}
