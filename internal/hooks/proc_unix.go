//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the hook in a new process group, and makes cancelling
// kill the whole group, so that what the hook started dies with it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
