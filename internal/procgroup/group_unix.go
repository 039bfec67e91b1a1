//go:build unix

package procgroup

import (
	"errors"
	"os/exec"
	"syscall"
)

var sigTerm, sigKill = syscall.SIGTERM, syscall.SIGKILL

// newGroup makes cmd lead a process group of its own, so that ending the
// group ends everything it started (npx, node, a shell's children...).
func newGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

func signalGroup(g *Group, sig syscall.Signal) { _ = syscall.Kill(-g.pgid, sig) }

// groupLive reports whether any member of group pgid runs: kill(-pgid, 0)
// fails with ESRCH once the group is empty; zombies (which this machine's
// init may reap late) keep the group but run nothing.
func groupLive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	return membersRun(pgid)
}
