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

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// StderrLines is how many of the agent's last stderr lines are kept.
const StderrLines = 40

// MaxStderrLine is how much of one stderr line the tail keeps; the rest
// is read and dropped, never a reason to stop reading.
const MaxStderrLine = 4096

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

// process is the agent subprocess: its group, its pipes, the tail of its
// stderr, and how it ended.
type process struct {
	group  *procgroup.Group
	grace  time.Duration
	stdin  io.WriteCloser
	stdout io.ReadCloser

	mu   sync.Mutex
	tail []string

	stderrDone chan struct{} // closed when stderr reached its end
	done       chan struct{} // closed once the leader has been reaped
	exit       ExitInfo
}

// startProcess starts the agent in a process group of its own, tracked by
// lc from the moment it runs.
func startProcess(lc *procgroup.Lifecycle, argv []string, dir string, env []string) (*process, error) {
	if len(argv) == 0 {
		return nil, errors.New("no agent command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
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
	g, err := lc.Start(cmd)
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start agent %q: %w", argv[0], err)
	}
	p := &process{group: g, grace: lc.GraceOrDefault(), stdin: stdin, stdout: outR,
		stderrDone: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.stderrDone)
		defer errR.Close()
		p.readStderr(errR)
	}()
	go func() {
		<-g.Done()
		p.exit = exitInfo(g.Err())
		close(p.done)
	}()
	return p, nil
}

// The link methods (transport.go): the agent's stdio is one transport.

func (p *process) pid() int               { return p.group.Pgid() }
func (p *process) lines() io.Reader       { return p.stdout }
func (p *process) sink() io.Writer        { return p.stdin }
func (p *process) gone() <-chan struct{}  { return p.done }
func (p *process) exitInfo() ExitInfo     { return p.exit }
func (p *process) cleanup()               { p.group.Stop(p.grace) }
func (p *process) closeLines()            { _ = p.stdout.Close() }
func (p *process) stderrTail() []string   { return p.Tail() }
func (p *process) settle(d time.Duration) { p.waitStderr(d) }
func (p *process) kind() string           { return "stdio" }
func (p *process) failure() error         { return nil }

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

// readStderr keeps the last StderrLines lines, each cut to MaxStderrLine
// bytes. It reads to the end whatever comes: an agent whose stderr is
// not drained blocks, and one whose stderr is closed dies of SIGPIPE.
func (p *process) readStderr(r io.Reader) {
	br := bufio.NewReaderSize(r, 64*1024)
	var line []byte
	total := 0
	for {
		chunk, err := br.ReadSlice('\n')
		total += len(chunk)
		if room := MaxStderrLine - len(line); room > 0 {
			line = append(line, chunk[:min(room, len(chunk))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if total > 0 {
			p.keep(line, total)
		}
		line, total = line[:0], 0
		if err != nil {
			return
		}
	}
}

// keep adds one stderr line (of total bytes, of which line is the kept
// head) to the tail.
func (p *process) keep(line []byte, total int) {
	s := strings.TrimRight(string(line), "\r\n")
	if total > len(line) {
		s += fmt.Sprintf(" … [line of %d bytes cut]", total)
	}
	s = sanitize.Line(s)
	p.mu.Lock()
	p.tail = append(p.tail, s)
	if len(p.tail) > StderrLines {
		p.tail = p.tail[len(p.tail)-StderrLines:]
	}
	p.mu.Unlock()
}

// Tail returns a copy of the last lines the agent wrote to stderr.
func (p *process) Tail() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.tail...)
}

// stop ends the agent: its stdin is closed (a well-behaved agent exits on
// EOF), then its whole process group is ended (SIGTERM, SIGKILL), and
// stop returns when no process of the group runs.
func (p *process) stop() ExitInfo {
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(p.grace):
	}
	p.group.Stop(p.grace)
	<-p.done
	return p.exit
}

// waitStderr gives the stderr reader up to d to reach the end, so the tail
// is complete when the exit is reported.
func (p *process) waitStderr(d time.Duration) {
	select {
	case <-p.stderrDone:
	case <-time.After(d):
	}
}
