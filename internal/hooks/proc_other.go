//go:build !unix

package hooks

import "os/exec"

// ownGroup has no process groups to use here: cancelling kills the hook
// itself (exec's default), not what it started.
func ownGroup(cmd *exec.Cmd) {}
