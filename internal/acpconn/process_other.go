//go:build !unix

package acpconn

import (
	"os/exec"
	"syscall"
)

func setProcessGroup(*exec.Cmd) {}

func signalName(s syscall.Signal) string { return s.String() }

func signalGroup(cmd *exec.Cmd, _ syscall.Signal) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
