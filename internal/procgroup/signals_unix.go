//go:build unix

package procgroup

import (
	"os"
	"syscall"
)

// TermSignals are the signals that end a terminal program: Ctrl+C, kill,
// and a closed terminal.
var TermSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func signalNumber(sig os.Signal) (int, bool) {
	s, ok := sig.(syscall.Signal)
	return int(s), ok
}
