package procgroup

import (
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// keepEvery is how often KeepUserSessions looks at the user's commands.
const keepEvery = 50 * time.Millisecond

// keepAfter is how long KeepUserSessions goes on looking once stopped: a
// launcher may detach the browser a moment after the command ended.
const keepAfter = 3 * time.Second

// KeepUserSessions keeps what the user's own commands start from being
// taken for strays, from now until a moment after stop is called. A
// command elicit runs in its own session for the user (a terminal sign-in
// command) may start a launcher that detaches into a session of its own
// (Node's "open" does, for the browser) and then exit: its launcher and
// the browser become children of this process (the reaper), outside its
// session. While this runs, the sessions of everything below this
// process's own-session children are noted as the user's; Shutdown leaves
// them alone. An agent's processes are never below such a child, so none
// can be noted.
func (l *Lifecycle) KeepUserSessions() (stop func()) {
	if !l.Strays {
		return func() {}
	}
	contain()
	done := make(chan struct{})
	go func() {
		var after <-chan time.Time
		tick := time.NewTicker(keepEvery)
		defer tick.Stop()
		for {
			l.noteUserSessions()
			select {
			case <-done:
				done, after = nil, time.After(keepAfter)
			case <-after:
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

// noteUserSessions notes the sessions below this process's own-session
// children, each with its leader's start time when the leader is seen, so
// a session id that a later process takes over (its pid reused) is not
// kept.
func (l *Lifecycle) noteUserSessions() {
	t, err := readTable()
	if err != nil {
		return
	}
	self := os.Getpid()
	own, err := unix.Getsid(0)
	if err != nil {
		return
	}
	set := map[int]bool{}
	for _, c := range t.children[self] {
		if t.procs[c].sid == own {
			set[c] = true
		}
	}
	t.descendants(set)
	l.mu.Lock()
	defer l.mu.Unlock()
	for pid := range set {
		p := t.procs[pid]
		if p.sid == own {
			continue
		}
		if l.kept == nil {
			l.kept = map[int]uint64{}
		}
		if leader, ok := t.procs[p.sid]; ok && leader.sid == p.sid {
			l.kept[p.sid] = leader.start
		} else if _, noted := l.kept[p.sid]; !noted {
			l.kept[p.sid] = 0
		}
	}
}

// keptSessions are the noted sessions that are still the same sessions.
func (l *Lifecycle) keptSessions(t *table, own int) map[int]bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[int]bool{}
	for sid, start := range l.kept {
		if leader, ok := t.procs[sid]; ok && start != 0 && leader.start != start {
			continue // the leader's pid now belongs to another process
		}
		out[sid] = sid != own
	}
	return out
}
