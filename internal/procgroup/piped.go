package procgroup

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// StderrLines is how many of a piped child's last stderr lines are kept.
const StderrLines = 40

// MaxStderrLine is how much of one stderr line the tail keeps; the rest is
// read and dropped, never a reason to stop reading.
const MaxStderrLine = 4096

// Piped is a child elicit talks to over its standard streams (an ACP
// agent, an MCP server): started by a Lifecycle like every process elicit
// starts, its stdin and stdout for the caller, its stderr read to the end
// (a child whose stderr is not drained blocks) with the last StderrLines
// lines kept, sanitized: a child's logs never reach the screen raw.
type Piped struct {
	Group  *Group
	Stdin  io.WriteCloser
	Stdout *os.File // elicit's own pipe: Wait does not close it, so nothing written is lost
	grace  time.Duration

	mu   sync.Mutex
	tail []string

	stderrDone chan struct{}
}

// StartPiped starts argv in dir (env nil: elicit's own) through l.
func (l *Lifecycle) StartPiped(argv []string, dir string, env []string) (*Piped, error) {
	if len(argv) == 0 {
		return nil, errors.New("no command")
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
	// the child exits, losing whatever it wrote that was not read yet (a
	// reader may be throttled, so that can be a lot).
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
	g, err := l.Start(cmd)
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, err
	}
	p := &Piped{Group: g, Stdin: stdin, Stdout: outR, grace: l.GraceOrDefault(), stderrDone: make(chan struct{})}
	go func() {
		defer close(p.stderrDone)
		defer errR.Close()
		p.readStderr(errR)
	}()
	return p, nil
}

// Grace is how long the child has between SIGTERM and SIGKILL.
func (p *Piped) Grace() time.Duration { return p.grace }

// readStderr keeps the last StderrLines lines, each cut to MaxStderrLine
// bytes, and reads to the end whatever comes.
func (p *Piped) readStderr(r io.Reader) {
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
func (p *Piped) keep(line []byte, total int) {
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

// StderrTail returns a copy of the last lines the child wrote to stderr.
func (p *Piped) StderrTail() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.tail...)
}

// WaitStderr gives the stderr reader up to d to reach the end, so the tail
// is whole when the exit is reported.
func (p *Piped) WaitStderr(d time.Duration) {
	select {
	case <-p.stderrDone:
	case <-time.After(d):
	}
}

// Stop ends the child as ACP and MCP both ask: its stdin is closed (a
// well-behaved child exits at end of input), then, after the grace, its
// whole group is ended (SIGTERM, then SIGKILL); Stop returns when nothing
// of it runs.
func (p *Piped) Stop() {
	_ = p.Stdin.Close()
	select {
	case <-p.Group.Done():
	case <-time.After(p.grace):
	}
	p.Group.Stop(p.grace)
	<-p.Group.Done()
}
