//go:build unix

package line

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// How the session catches Ctrl+Z and stops: variables only so that a
// test can send a SIGTSTP of its own and fake the stop and the clock (a
// real stop would stop the test).
var (
	notifySuspend = func(c chan<- os.Signal) { signal.Notify(c, syscall.SIGTSTP) }
	stopProcess   = stopSelf
	suspendClock  = time.Now
)

// catchSuspend starts answering Ctrl+Z (SIGTSTP) for the session; the
// returned function stops it.
func (l *lineSession) catchSuspend() func() {
	sig := make(chan os.Signal, 1)
	notifySuspend(sig)
	done := make(chan struct{})
	l.susp = &suspender{l: l, stop: func() { stopProcess(sig) }, now: suspendClock}
	go l.susp.run(sig, done)
	return func() {
		signal.Stop(sig)
		close(done)
	}
}

// stopSelf stops the process until SIGCONT (fg), as the shell's job
// control expects of SIGTSTP. It stops with SIGSTOP: once Notify caught
// SIGTSTP, Go's runtime keeps its own handler for it (signal.Reset does not
// bring the default action back), so a SIGTSTP sent now would be dropped.
func stopSelf(chan os.Signal) {
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	defer signal.Stop(cont)
	if syscall.Kill(os.Getpid(), syscall.SIGSTOP) == nil {
		<-cont
	}
}
