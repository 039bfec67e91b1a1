package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/procgroup"
)

// Limits on what is read from a hook. A hook answers with one small JSON
// object: one that prints more on either stream has failed, and is
// stopped at once.
const (
	maxStdout = 64 << 10
	maxStderr = 64 << 10
	// shownStderr is how much of stderr an Error or a Reason keeps.
	shownStderr = 400
	// waitDelay is how long, after the hook exits or is killed, its pipes
	// may stay open (held by a process that left its group) before they
	// are closed.
	waitDelay = 500 * time.Millisecond
)

// output is what one run of a hook produced.
type output struct {
	stdout, stderr []byte
	code           int // exit status; -1 when killed by a signal
}

// errTimeout is returned by run when the hook ran past its deadline.
var errTimeout = errors.New("timed out")

// newDeadline starts the clock on one run of a hook. A test replaces it
// to say when the time is up: after the hook got going, however slowly.
var newDeadline = time.NewTimer

// run starts the hook with input on stdin, through lc (a session of its
// own: no terminal; its strays end with elicit), and waits for it. At its
// deadline, when ctx ends, or when it prints past a cap, its whole group
// is killed; once it exited, what it left running in its group is ended
// too (in the background: the answer does not wait). An error means it did
// not run to an exit status: could not start, timed out, printed too
// much, or ctx ended.
func run(ctx context.Context, lc *procgroup.Lifecycle, h config.Hook, input []byte, cwd string) (output, error) {
	cmd := exec.Command(h.Command[0], h.Command[1:]...)
	cmd.WaitDelay = waitDelay
	cmd.Stdin = bytes.NewReader(input)
	stdout, stderr := newCapped(maxStdout), newCapped(maxStderr)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = os.Environ()
	if cwd != "" {
		cmd.Dir = cwd
		if _, set := os.LookupEnv("CLAUDE_PROJECT_DIR"); !set {
			cmd.Env = append(cmd.Env, "CLAUDE_PROJECT_DIR="+cwd)
		}
	}
	g, err := lc.Start(cmd)
	if err != nil {
		return output{code: -1}, err
	}
	deadline := newDeadline(h.Deadline())
	defer deadline.Stop()
	var failed error
	select {
	case <-g.Done():
	case <-deadline.C:
		failed = errTimeout
	case <-ctx.Done():
		failed = ctx.Err()
	case <-stdout.over:
		failed = fmt.Errorf("printed more than %d KiB on stdout (a hook answers with one small JSON object); it was stopped", maxStdout>>10)
	case <-stderr.over:
		failed = fmt.Errorf("printed more than %d KiB on stderr; it was stopped", maxStderr>>10)
	}
	if failed != nil {
		g.Stop(0) // SIGKILL at once, then wait until none of it runs
	} else {
		go g.Stop(lc.GraceOrDefault())
	}
	<-g.Done()
	out := output{stdout: stdout.bytes(), stderr: stderr.bytes(), code: cmd.ProcessState.ExitCode()}
	if failed != nil {
		return out, failed
	}
	var exit *exec.ExitError
	if err := g.Err(); err != nil && !errors.As(err, &exit) && !errors.Is(err, exec.ErrWaitDelay) {
		return out, err
	}
	return out, nil
}

// capped keeps up to max bytes written to it and closes over once more
// come (it still reports every write as done, so the writer is not stopped
// by an error before it is killed). It has no ReadFrom on purpose: exec
// copies into it with io.Copy, which would hand a bytes.Buffer's
// ReadFrom the whole stream, past any cap (a flooding hook grew elicit to
// gigabytes that way).
type capped struct {
	mu   sync.Mutex
	buf  []byte
	max  int
	over chan struct{}
	once sync.Once
}

func newCapped(max int) *capped { return &capped{max: max, over: make(chan struct{})} }

// Write keeps what fits and reports all of p written.
func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.max - len(c.buf)
	c.buf = append(c.buf, p[:max(0, min(room, len(p)))]...)
	if len(p) > room {
		c.once.Do(func() { close(c.over) })
	}
	return len(p), nil
}

func (c *capped) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf
}

// shown makes a hook's text fit for one line of a message: trimmed,
// controls and bidi overrides replaced, newlines as " / ", at most
// shownStderr bytes from its end. The caller still quotes it as agent text.
func shown(b []byte) string {
	s := strings.TrimSpace(string(bytes.ToValidUTF8(b, []byte("\uFFFD"))))
	if len(s) > shownStderr {
		s = s[len(s)-shownStderr:]
		for len(s) > 0 && !utf8.RuneStart(s[0]) {
			s = s[1:]
		}
		s = "…" + s
	}
	var out strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			out.WriteString(" / ")
		case unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r):
			out.WriteRune('\uFFFD')
		default:
			out.WriteRune(r)
		}
	}
	return out.String()
}

// describe says why a run failed, for an Error's Reason.
func describe(err error, h config.Hook) string {
	if errors.Is(err, errTimeout) {
		return fmt.Sprintf("timed out after %s (its process group was killed)", h.Deadline())
	}
	return err.Error()
}
