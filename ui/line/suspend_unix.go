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

// stopSelf stops the process as SIGTSTP's default action would (the
// shell's job control waits for that), until SIGCONT (fg); then it
// catches SIGTSTP again.
func stopSelf(sig chan os.Signal) {
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	defer signal.Stop(cont)
	signal.Reset(syscall.SIGTSTP)
	_ = syscall.Kill(0, syscall.SIGTSTP) // the whole group, as the terminal sent it
	<-cont
	signal.Notify(sig, syscall.SIGTSTP)
}
