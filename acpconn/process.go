package acpconn

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/elicit-dev/elicit/internal/procgroup"
)

// StderrLines is how many of the agent's last stderr lines are kept.
const StderrLines = procgroup.StderrLines

// MaxStderrLine is how much of one stderr line the tail keeps; the rest
// is read and dropped, never a reason to stop reading.
const MaxStderrLine = procgroup.MaxStderrLine

// ExitInfo describes how the agent process ended.
type ExitInfo struct {
	Code   int    // exit code, -1 when killed by a signal or never started
	Signal string // the signal that ended it, if any
	Err    error  // a wait error other than a plain non-zero exit; for a remote agent, how its connection ended
	// Remote is set for an agent reached over the network: Code and Signal
	// mean nothing, Err (nil when elicit closed it) says how it ended.
	Remote bool
	// Lost is set when a remote agent's connection ended without elicit
	// ending it (dropped, or closed by the server): the agent may still
	// run, and its session may be taken up again on a new connection.
	Lost bool
}

// String says how the agent ended, in a few words.
func (e ExitInfo) String() string {
	switch {
	case e.Remote && e.Err != nil:
		return e.Err.Error()
	case e.Remote:
		return "disconnected"
	case e.Signal != "":
		return "killed by " + e.Signal
	case e.Err != nil:
		return e.Err.Error()
	default:
		return fmt.Sprintf("exit status %d", e.Code)
	}
}

// process is the agent subprocess (procgroup.Piped: its group, its pipes
// and the tail of its stderr) and how it ended.
type process struct {
	*procgroup.Piped
	done chan struct{} // closed once the leader has been reaped
	exit ExitInfo
}

func (p *process) pid() int               { return p.Group.Pgid() }
func (p *process) lines() io.Reader       { return p.Stdout }
func (p *process) sink() io.Writer        { return p.Stdin }
func (p *process) gone() <-chan struct{}  { return p.done }
func (p *process) exitInfo() ExitInfo     { return p.exit }
func (p *process) cleanup()               { p.Group.Stop(p.Grace()) }
func (p *process) closeLines()            { _ = p.Stdout.Close() }
func (p *process) stderrTail() []string   { return p.StderrTail() }
func (p *process) settle(d time.Duration) { p.WaitStderr(d) }
func (p *process) kind() string           { return "stdio" }
func (p *process) failure() error         { return nil }

// startProcess starts the agent through lc (procgroup.StartPiped).
func startProcess(lc *procgroup.Lifecycle, argv []string, dir string, env []string) (*process, error) {
	if len(argv) == 0 {
		return nil, errors.New("no agent command")
	}
	piped, err := lc.StartPiped(argv, dir, env)
	if err != nil {
		return nil, fmt.Errorf("start agent %q: %w", argv[0], err)
	}
	p := &process{Piped: piped, done: make(chan struct{})}
	go func() {
		<-piped.Group.Done()
		p.exit = exitInfo(piped.Group.Err())
		close(p.done)
	}()
	return p, nil
}

// The link methods (transport.go): the agent's stdio is one transport.

// stop ends the agent: its stdin is closed (a well-behaved agent exits on
// EOF), then its whole process group is ended (SIGTERM, SIGKILL), and
// stop returns when no process of the group runs.
func (p *process) stop() ExitInfo {
	p.Stop()
	<-p.done
	return p.exit
}

func exitInfo(err error) ExitInfo {
	if err == nil {
		return ExitInfo{Code: 0}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return ExitInfo{Code: -1, Signal: signalName(ws.Signal())}
		}
		return ExitInfo{Code: ee.ExitCode()}
	}
	return ExitInfo{Code: -1, Err: err}
}
