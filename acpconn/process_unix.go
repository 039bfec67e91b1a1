//go:build unix

package acpconn

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the agent in a process group of its own, so that
// quitting ends the agent and everything it started (npx, node, ...).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
