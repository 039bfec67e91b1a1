package mcpconn

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

// StderrLines is how many of the server's last stderr lines are kept.
const StderrLines = 40

// maxStderrLine is how much of one stderr line the tail keeps; the rest is
// read and dropped, never a reason to stop reading.
const maxStderrLine = 4096

// process is a stdio server: its process group, its pipes and the tail of
// its stderr (a server's logs must never reach the screen).
type process struct {
	group  *procgroup.Group
	grace  time.Duration
	stdin  io.WriteCloser
	stdout io.ReadCloser

	mu   sync.Mutex
	tail []string

	stderrDone chan struct{}
	done       chan struct{} // closed once the leader has been reaped
	exit       string        // how it ended, valid after done
}

// startProcess starts the server in a process group of its own, tracked
// by lc from the moment it runs, like every process elicit starts.
func startProcess(lc *procgroup.Lifecycle, argv []string, dir string, env []string) (*process, error) {
	if len(argv) == 0 {
		return nil, errors.New("no server command")
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
	// Our own pipes, not StdoutPipe/StderrPipe: Wait closes those as soon
	// as the server exits, losing what it wrote that was not read yet.
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
		return nil, fmt.Errorf("start server %q: %w", argv[0], err)
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
		p.exit = exitText(g.Err())
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

// readStderr keeps the last StderrLines lines. It reads to the end
// whatever comes: a server whose stderr is not drained blocks.
func (p *process) readStderr(r io.Reader) {
	br := bufio.NewReaderSize(r, 64*1024)
	var line []byte
	total := 0
	for {
		chunk, err := br.ReadSlice('\n')
		total += len(chunk)
		if room := maxStderrLine - len(line); room > 0 {
			line = append(line, chunk[:min(room, len(chunk))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if total > 0 {
			s := strings.TrimRight(string(line), "\r\n")
			if total > len(line) {
				s += fmt.Sprintf(" … [line of %d bytes cut]", total)
			}
			p.mu.Lock()
			p.tail = append(p.tail, sanitize.Line(s))
			if len(p.tail) > StderrLines {
				p.tail = p.tail[len(p.tail)-StderrLines:]
			}
			p.mu.Unlock()
		}
		line, total = line[:0], 0
		if err != nil {
			return
		}
	}
}

// stderrTail returns a copy of the last lines the server wrote to stderr.
func (p *process) stderrTail() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.tail...)
}

// stop ends the server as the MCP spec asks (stdin closed first, then
// SIGTERM, then SIGKILL), for its whole process group, and returns when
// nothing of it runs.
func (p *process) stop() {
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(p.grace):
	}
	p.group.Stop(p.grace)
	<-p.done
	select { // the tail is complete once stderr reached its end
	case <-p.stderrDone:
	case <-time.After(time.Second):
	}
}
