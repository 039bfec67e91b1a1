//go:build unix && !linux

package procgroup

import (
	"errors"
	"syscall"
)

// Without /proc, a group is what kill(2) reaches: the process group. A
// member that moved to another group of the session, or left the session,
// is not reached (on Linux it is, while it is still a descendant).
func signalGroup(g *Group, sig syscall.Signal) { _ = syscall.Kill(-g.pgid, sig) }

// groupLive is conservative: kill(-pgid, 0) succeeds while a zombie of the
// group is not reaped yet.
func groupLive(g *Group) bool {
	return !errors.Is(syscall.Kill(-g.pgid, 0), syscall.ESRCH)
}

// proc is a process as Linux's /proc shows it; unused here.
type proc struct{}
