package acpconn

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// MaxOutputLimit is the most of a terminal's output kept, whatever
// outputByteLimit the agent sets (a larger one is clamped: the tail is
// kept, as the spec says for any limit); it is also what is kept when the
// agent sets none. A command printing gigabytes costs this much.
const MaxOutputLimit = 1 << 20

// DefaultOutputLimit is how many bytes of a terminal's output are kept
// when the agent sets no outputByteLimit.
const DefaultOutputLimit = MaxOutputLimit

// MaxTerminals is how many terminals the agent may hold at once (created
// and not released); more are refused until it releases one. With
// MaxOutputLimit, it bounds what all terminals together keep.
const MaxTerminals = 32

// streamPiece is the most of a command's output one TerminalOutput event
// carries, so the events waiting for the UI stay small.
const streamPiece = 8 << 10

// killGrace is how long a terminal's process group has between SIGTERM
// and SIGKILL.
var killGrace = 2 * time.Second

// streamHold is how much of an unfinished line is held back before it is
// streamed anyway: chunks end at line breaks where they can, so an escape
// sequence is not cut in two before it is sanitized.
const streamHold = 4096

// TerminalOutput is new output of a command the agent runs through
// terminal/create, for the UI to stream into the tool call that shows it.
// ToolCallID is "" until a tool call names the terminal in its content.
// The last event of a terminal has Exited set and Exit filled.
type TerminalOutput struct {
	TerminalID, ToolCallID string
	Chunk                  string // sanitized
	Exited                 bool
	Exit                   ExitInfo
}

// terminals are the commands the agent started; the zero value is ready.
type terminals struct {
	mu       sync.Mutex
	next     int
	byID     map[string]*terminal
	watching bool
	closed   bool
	// ended is closed once the terminals held at closing time are gone;
	// every caller of closeTerminals waits for it, not only the first.
	ended chan struct{}
}

// terminal is one command: its process group and the output it kept.
type terminal struct {
	id   string
	g    *procgroup.Group
	done chan struct{} // closed once the process was waited for and its output read
	read chan struct{} // closed once its output reached end of file
	// exited is closed once the process was waited for; drained once the
	// reader has read everything it wrote (see readTerminal).
	exited, drained chan struct{}

	mu       sync.Mutex
	out      *tail
	toolCall string
	exit     ExitInfo
	link     termLink // output held until a tool call names the terminal
}

// createTerminal serves terminal/create: the command runs under the
// session directory, through the connection's lifecycle (a session of its
// own: no terminal; ended when released, when the connection closes, and
// with elicit at the latest). Every command is reported in a Notice before
// it starts; under TerminalsRefused none starts, unless the session
// allowed it by a permission rule (ruled).
func (c *Conn) createTerminal(p acp.CreateTerminalRequest, ruled bool) (any, *acp.RequestError) {
	if p.Command == "" {
		return nil, invalidParams("command", "command is required")
	}
	if !c.knownSession(string(p.SessionId), "terminal/create") {
		return nil, invalidParams("sessionId", "unknown session")
	}
	dir := c.root
	if p.Cwd != nil && *p.Cwd != "" {
		d, err := insideRoot(c.root, *p.Cwd)
		if err != nil {
			return nil, invalidParams("cwd", err.Error())
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return nil, invalidParams("cwd", fmt.Sprintf("cwd %q is not a directory", sanitize.Line(*p.Cwd)))
		}
		dir = d
	}
	env := c.cfg.Env
	if env == nil {
		env = os.Environ()
	}
	env = append([]string(nil), env...)
	for _, v := range p.Env {
		if v.Name == "" || strings.ContainsAny(v.Name, "=\x00") || strings.ContainsRune(v.Value, 0) {
			return nil, invalidParams("env", fmt.Sprintf("invalid environment variable %q", sanitize.ID(v.Name)))
		}
		env = append(env, v.Name+"="+v.Value) // the last one wins in exec
	}
	limit := DefaultOutputLimit
	if p.OutputByteLimit != nil {
		if *p.OutputByteLimit < 0 {
			return nil, invalidParams("outputByteLimit", "outputByteLimit must not be negative")
		}
		limit = min(*p.OutputByteLimit, MaxOutputLimit)
	}
	shown := commandLine(p, dir, c.root)
	if c.cfg.Terminals == TerminalsRefused && !ruled {
		why := "the user did not allow the agent's commands"
		if c.cfg.TerminalsRefusedWhy != "" {
			why += " (" + c.cfg.TerminalsRefusedWhy + ")"
		}
		c.emit(Notice{Text: "refused the agent's command " + shown + ": " + why, Error: true})
		return nil, invalidParams("command", "refused: "+why)
	}
	if n := c.terms.count(); n >= MaxTerminals {
		c.emit(Notice{Text: fmt.Sprintf("refused the agent's command %s: it holds %d terminals it has not released", shown, n), Error: true})
		return nil, invalidParams("command", fmt.Sprintf("refused: %d terminals are open; release one first (terminal/release)", n))
	}
	c.emit(Notice{Text: "the agent runs " + shown})
	cmd := exec.Command(p.Command, p.Args...)
	cmd.Dir, cmd.Env = dir, env
	r, w, err := os.Pipe()
	if err != nil {
		return nil, acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	cmd.Stdout, cmd.Stderr = w, w // one stream, interleaved as a terminal shows it
	if !c.terms.open() {
		r.Close()
		w.Close()
		return nil, acp.NewInternalError(map[string]any{"error": "the connection is closing"})
	}
	g, err := c.lc.Start(cmd) // its own session, ended with elicit at the latest
	w.Close()
	if err != nil {
		r.Close()
		c.emit(Notice{Text: "the agent's command " + shown + " did not start: " + sanitize.Line(err.Error()), Error: true})
		return nil, acp.NewInternalError(map[string]any{"error": "start " + sanitize.Line(p.Command) + ": " + sanitize.Line(err.Error())})
	}
	t := &terminal{g: g, out: newTail(limit), done: make(chan struct{}), read: make(chan struct{}),
		exited: make(chan struct{}), drained: make(chan struct{})}
	id, ok := c.terms.add(t)
	if !ok { // the connection closed meanwhile
		go c.readTerminal(t, r)
		go t.reap(r)
		t.kill()
		return nil, acp.NewInternalError(map[string]any{"error": "the connection is closing"})
	}
	t.id = id
	c.watchTerminals()
	go c.readTerminal(t, r)
	go func() {
		t.reap(r)
		c.termEmit(t, TerminalOutput{TerminalID: t.id, Exited: true, Exit: t.exit})
		time.AfterFunc(linkWait, func() { c.releaseUnlinked(t) })
	}()
	return acp.CreateTerminalResponse{TerminalId: t.id}, nil
}

// reap waits for the command, then for the reader to have read all it
// wrote, and only then reports the exit: an agent that asks for the
// output after wait_for_exit gets all of it. The reader cannot wait for
// end of file (a process the command left behind may hold the pipe open),
// so it is told to read what the pipe holds now, without blocking.
func (t *terminal) reap(r *os.File) {
	<-t.g.Done()
	t.exit = exitInfo(t.g.Err())
	close(t.exited)
	// A past deadline wakes a blocked Read; it fails once r was closed at
	// end of file, and where pipes have no deadlines (Windows): there the
	// output that is in the pipe gets a moment to arrive.
	var late <-chan time.Time
	if err := r.SetReadDeadline(time.Now()); errors.Is(err, os.ErrNoDeadline) {
		late = time.After(200 * time.Millisecond)
	}
	select {
	case <-t.read:
	case <-t.drained:
	case <-late:
	}
	close(t.done)
}

// readTerminal keeps the command's output within its limit and streams it
// to the UI, line by line where it can. It is the pipe's only reader. Once
// the command exited (reap set a past deadline), it reads what the pipe
// holds without blocking, says so on t.drained, and goes on reading what
// processes the command left behind may still write, until end of file.
func (c *Conn) readTerminal(t *terminal, r *os.File) {
	defer close(t.read)
	defer r.Close()
	buf := make([]byte, 32<<10)
	var st streamer
	emit := func(piece []byte) {
		c.termEmit(t, TerminalOutput{TerminalID: t.id, Chunk: sanitize.Text(string(piece))})
	}
	got := func(b []byte) {
		t.keep(b)
		st.feed(b, emit)
	}
	drained := false
	for {
		n, err := r.Read(buf)
		if n > 0 {
			got(buf[:n])
		}
		if errors.Is(err, os.ErrDeadlineExceeded) && !drained {
			select {
			case <-t.exited:
			default:
				continue // not reap's deadline
			}
			_ = r.SetReadDeadline(time.Time{})
			eof := drainPipe(r, buf, got)
			st.flush(emit)
			drained = true
			close(t.drained)
			if eof {
				return
			}
			continue
		}
		if err != nil {
			st.flush(emit)
			return
		}
	}
}

// keep adds output to what the terminal keeps (its tail: see tail).
func (t *terminal) keep(b []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.out.write(b)
}

// output is what terminal/output answers: the output kept, whether some
// was dropped, and the exit status once the command ended.
func (t *terminal) output() acp.TerminalOutputResponse {
	t.mu.Lock()
	b, truncated := t.out.bytes()
	t.mu.Unlock()
	resp := acp.TerminalOutputResponse{Output: string(b), Truncated: truncated}
	select {
	case <-t.done:
		st := exitStatus(t.exit)
		resp.ExitStatus = &st
	default:
	}
	return resp
}

// kill ends the command's process group: SIGTERM, then SIGKILL after
// killGrace. It returns once the command was waited for.
func (t *terminal) kill() {
	t.g.Stop(killGrace) // the whole group, including what the command left behind
	<-t.done
}

// insideRoot resolves path (absolute, symlinks followed) and refuses one
// that leads outside root. It is for a command's working directory: the
// command itself is the agent's to run, so this only keeps its start
// inside the session.
func insideRoot(root, path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("path %q is not absolute", sanitize.Line(path))
	}
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("cwd %q: %v", sanitize.Line(path), err)
	}
	rel, err := filepath.Rel(root, resolved)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("path %q is outside the session directory %s", sanitize.Line(path), root)
	}
	return resolved, nil
}

func exitStatus(e ExitInfo) acp.TerminalExitStatus {
	var st acp.TerminalExitStatus
	if e.Signal != "" {
		s := e.Signal
		st.Signal = &s
	} else if e.Code >= 0 {
		code := e.Code
		st.ExitCode = &code
	}
	return st
}

// watchTerminals ends every terminal once the connection is gone (the
// agent exited or closed its output), even before Close.
func (c *Conn) watchTerminals() {
	c.terms.mu.Lock()
	defer c.terms.mu.Unlock()
	if c.terms.watching {
		return
	}
	c.terms.watching = true
	go func() {
		select {
		case <-c.rpc.Done():
		case <-c.closed:
		}
		c.closeTerminals()
	}()
}

// closeTerminals ends every terminal and refuses new ones, and returns
// once every one is gone, whichever caller came first: Close waits for
// the kills the watcher began when the agent exited.
func (c *Conn) closeTerminals() {
	c.terms.mu.Lock()
	if c.terms.closed {
		ended := c.terms.ended
		c.terms.mu.Unlock()
		<-ended
		return
	}
	c.terms.closed = true
	c.terms.ended = make(chan struct{})
	all := c.terms.byID
	c.terms.byID = nil
	c.terms.mu.Unlock()
	var wg sync.WaitGroup
	for _, t := range all {
		wg.Go(t.kill)
	}
	wg.Wait()
	close(c.terms.ended)
}

func (ts *terminals) open() bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return !ts.closed
}

// add gives t an id; false once the terminals were closed.
func (ts *terminals) add(t *terminal) (string, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return "", false
	}
	ts.next++
	id := fmt.Sprintf("term-%d", ts.next)
	if ts.byID == nil {
		ts.byID = map[string]*terminal{}
	}
	ts.byID[id] = t
	return id, true
}

// count is how many terminals are held (created and not released).
func (ts *terminals) count() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.byID)
}

func (ts *terminals) get(id string) *terminal {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.byID[id]
}

func (ts *terminals) remove(id string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	delete(ts.byID, id)
}
