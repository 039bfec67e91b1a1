//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
)

var sigTerm, sigKill = syscall.SIGTERM, syscall.SIGKILL

// newGroup makes cmd lead a session of its own, and so a process group of
// its own: ending the group ends everything it started (npx, node, a
// shell's children...). A new session has no controlling terminal, so
// nothing cmd starts can open /dev/tty: it cannot write to the user's
// screen, push keys into it (TIOCSTI) or take its foreground (tcsetpgrp).
// (A session leader cannot also call setpgid, so Setpgid is cleared.)
func newGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	a := cmd.SysProcAttr
	a.Setsid, a.Setpgid, a.Pgid, a.Setctty, a.Foreground = true, false, 0, false, false
}
