//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
)

var sigTerm, sigKill os.Signal = os.Kill, os.Kill

// newGroup does nothing where there are no process groups.
func newGroup(*exec.Cmd) {}

func signalGroup(g *Group, _ os.Signal) { _ = g.cmd.Process.Kill() }

// groupLive: without process groups only the leader is known, and it has
// been reaped when this is asked.
func groupLive(*Group) bool { return false }

// proc is a process as Linux's /proc shows it; unused here.
type proc struct{}
