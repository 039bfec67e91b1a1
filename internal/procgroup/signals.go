package procgroup

import (
	"context"
	"os"
	"os/signal"
	"sync"
)

// TrapSignals calls onSignal, on a goroutine of its own and one at a time,
// for each of sigs that arrives (by default TermSignals) until ctx ends or
// stop is called; meanwhile those signals no longer kill the process, so
// the caller can end its agents first. stop waits for a running onSignal.
func TrapSignals(ctx context.Context, onSignal func(os.Signal), sigs ...os.Signal) (stop func()) {
	if len(sigs) == 0 {
		sigs = TermSignals
	}
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, sigs...)
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-ctx.Done():
				return
			case s := <-ch:
				onSignal(s)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(ch)
			cancel()
			wg.Wait()
		})
	}
}

// ExitCode is the conventional exit status of a program ended by sig:
// 128 plus its number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
func ExitCode(sig os.Signal) int {
	if n, ok := signalNumber(sig); ok {
		return 128 + n
	}
	return 1
}

// HoldSignals keeps sigs (by default HeldSignals) from ending this process
// from now until it exits: each is received and dropped. Handlers set up
// with TrapSignals, or by a front end, still get theirs. A program calls
// it first thing, so that a signal that comes while it ends its groups
// (the second SIGHUP of a closed terminal, when its shell exits; a second
// Ctrl+C) cannot kill it before the grace and the SIGKILL are through. A
// held signal is caught, not ignored, so the processes started later do
// not inherit it ignored.
func HoldSignals(sigs ...os.Signal) {
	if len(sigs) == 0 {
		sigs = HeldSignals
	}
	signal.Notify(make(chan os.Signal, 1), sigs...)
}
