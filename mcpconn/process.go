package mcpconn

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/elicit-dev/elicit/internal/procgroup"
)

// StderrLines is how many of the server's last stderr lines are kept.
const StderrLines = procgroup.StderrLines

// process is a stdio server (procgroup.Piped: its process group, its pipes
// and the tail of its stderr; a server's logs must never reach the screen)
// and how it ended.
type process struct {
	*procgroup.Piped
	stdin  io.WriteCloser
	stdout io.ReadCloser
	grace  time.Duration
	done   chan struct{} // closed once the leader has been reaped
	exit   string        // how it ended, valid after done
}

// startProcess starts the server through lc (procgroup.StartPiped), like
// every process elicit starts.
func startProcess(lc *procgroup.Lifecycle, argv []string, dir string, env []string) (*process, error) {
	if len(argv) == 0 {
		return nil, errors.New("no server command")
	}
	piped, err := lc.StartPiped(argv, dir, env)
	if err != nil {
		return nil, fmt.Errorf("start server %q: %w", argv[0], err)
	}
	p := &process{Piped: piped, stdin: piped.Stdin, stdout: piped.Stdout, grace: piped.Grace(), done: make(chan struct{})}
	go func() {
		<-piped.Group.Done()
		p.exit = exitText(piped.Group.Err())
		close(p.done)
	}()
	return p, nil
}

// exitText says in a few words how the server ended.
func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by " + ws.Signal().String()
		}
		return fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	return err.Error()
}

// stderrTail returns a copy of the last lines the server wrote to stderr.
func (p *process) stderrTail() []string { return p.StderrTail() }

// stop ends the server as the MCP spec asks (stdin closed first, then
// SIGTERM, then SIGKILL), for its whole process group, and returns when
// nothing of it runs and its stderr tail is whole.
func (p *process) stop() {
	p.Stop()
	<-p.done
	p.WaitStderr(time.Second)
}
