//go:build unix

package acpconn

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// signalName is the signal's name as people know it: SIGKILL, SIGSEGV.
func signalName(s syscall.Signal) string {
	if n := unix.SignalName(s); n != "" {
		return n
	}
	return s.String()
}

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
