package cmd

import (
	"context"
	"os"
	"sync/atomic"

	"github.com/elicit-dev/elicit/internal/procgroup"
)

// One place in the command tree ends every process elicit started. The
// agents, their terminal commands, the hooks and the MCP servers all start
// through procgroup.Default (acpconn, mcpconn and the hooks see to it),
// and endAll, around the whole command tree in Main, ends them however the
// command ended: it returned, it failed, or it panicked (a full screen's
// crash too, which bubbletea recovers and Run reports). A command that
// waits on its processes without a screen traps the signals that end it
// with endOnSignal: they end every process at once, its front end sees
// its agent or server go and returns, and endAll finds nothing left. No
// command ends them by hand, so none can forget to.

// endAll runs the command tree (run) and then ends every process elicit
// started (procgroup.Default.Shutdown: SIGTERM, the grace, SIGKILL, and
// what left its group), on every way out of run, a panic included, which
// goes on once they are gone. It returns run's exit status.
func endAll(run func() int) int {
	defer procgroup.Default.Shutdown()
	return run()
}

// signalEnd is a trap set by endOnSignal.
type signalEnd struct {
	caught atomic.Value // the first signal that came
	end    func()
}

// endOnSignal makes each of sigs (by default procgroup.TermSignals) end
// every process elicit started as soon as it comes, until stop; the signal
// no longer kills elicit meanwhile.
func endOnSignal(sigs ...os.Signal) *signalEnd {
	e := &signalEnd{}
	e.end = procgroup.TrapSignals(context.Background(), func(s os.Signal) {
		e.caught.CompareAndSwap(nil, s)
		procgroup.Default.Shutdown()
	}, sigs...)
	return e
}

// stop removes the trap and returns the signal that came, or nil.
func (e *signalEnd) stop() os.Signal {
	e.end()
	s, _ := e.caught.Load().(os.Signal)
	return s
}
