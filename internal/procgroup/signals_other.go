//go:build !unix

package procgroup

import "os"

// TermSignals are the signals that end a terminal program.
var TermSignals = []os.Signal{os.Interrupt}

// HeldSignals are the signals HoldSignals holds by default.
var HeldSignals = TermSignals

func signalNumber(sig os.Signal) (int, bool) {
	if sig == os.Interrupt {
		return 2, true
	}
	return 0, false
}
