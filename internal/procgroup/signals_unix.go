//go:build unix

package procgroup

import (
	"os"
	"syscall"
)

// TermSignals are the signals that end a terminal program: Ctrl+C, kill,
// and a closed terminal.
var TermSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// HeldSignals are TermSignals and SIGPIPE: with SIGPIPE held, a write to a
// closed stdout (elicit -p | head -1) fails with EPIPE instead of killing
// the program before it ends its groups.
var HeldSignals = append(TermSignals[:len(TermSignals):len(TermSignals)], syscall.SIGPIPE)

func signalNumber(sig os.Signal) (int, bool) {
	s, ok := sig.(syscall.Signal)
	return int(s), ok
}
