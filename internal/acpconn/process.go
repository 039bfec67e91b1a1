package acpconn

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// StderrLines is how many of the agent's last stderr lines are kept.
const StderrLines = 40

// ExitInfo describes how the agent process ended.
type ExitInfo struct {
	Code   int    // exit code, -1 when killed by a signal or never started
	Signal string // the signal that ended it, if any
	Err    error  // a wait error other than a plain non-zero exit
}

// String says how the agent ended, in a few words.
func (e ExitInfo) String() string {
	switch {
	case e.Signal != "":
		return "killed by " + e.Signal
	case e.Err != nil:
		return e.Err.Error()
	default:
		return fmt.Sprintf("exit status %d", e.Code)
	}
}

// process is the agent subprocess: its pipes, the tail of its stderr, and
// how it ended.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser

	mu   sync.Mutex
	tail []string

	done chan struct{} // closed once the process has been waited for
	exit ExitInfo
}

func startProcess(argv []string, dir string, env []string) (*process, error) {
	if len(argv) == 0 {
		return nil, errors.New("no agent command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// Our own pipes, not StdoutPipe/StderrPipe: Wait closes those as soon as
	// the agent exits, losing whatever it wrote that was not read yet (the
	// reader is throttled, so that can be a lot).
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start agent %q: %w", argv[0], err)
	}
	stdout, stderr := outR, errR
	p := &process{cmd: cmd, stdin: stdin, stdout: stdout, done: make(chan struct{})}
	stderrDone := make(chan struct{})
	go func() {
		defer close(stderrDone)
		defer stderr.Close()
		p.readStderr(stderr)
	}()
	go func() {
		// Wait closes the pipes, so let stderr drain first for a full tail.
		select {
		case <-stderrDone:
		case <-time.After(2 * time.Second):
		}
		err := cmd.Wait()
		p.exit = exitInfo(err)
		close(p.done)
	}()
	return p, nil
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

func (p *process) readStderr(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sanitize.Line(strings.TrimRight(sc.Text(), "\r"))
		p.mu.Lock()
		p.tail = append(p.tail, line)
		if len(p.tail) > StderrLines {
			p.tail = p.tail[len(p.tail)-StderrLines:]
		}
		p.mu.Unlock()
	}
}

// Tail returns a copy of the last lines the agent wrote to stderr.
func (p *process) Tail() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.tail...)
}

// stop ends the agent: its stdin is closed (a well-behaved agent exits on
// EOF), then its whole process group gets SIGTERM, then SIGKILL.
func (p *process) stop(grace time.Duration) ExitInfo {
	_ = p.stdin.Close()
	select {
	case <-p.done:
		return p.exit
	case <-time.After(grace):
	}
	signalGroup(p.cmd, syscall.SIGTERM)
	select {
	case <-p.done:
		return p.exit
	case <-time.After(grace):
	}
	signalGroup(p.cmd, syscall.SIGKILL)
	<-p.done
	return p.exit
}
