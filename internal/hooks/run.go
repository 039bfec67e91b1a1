package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/config"
)

// Limits on what is read from a hook.
const (
	maxStdout = 1 << 20
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

// run starts the hook with input on stdin and waits for it, killing its
// whole process group at its deadline or when ctx ends. An error means it
// did not run to an exit status: could not start, timed out, or ctx ended.
func run(ctx context.Context, h config.Hook, input []byte, cwd string) (output, error) {
	tctx, cancel := context.WithTimeout(ctx, h.Deadline())
	defer cancel()
	cmd := exec.CommandContext(tctx, h.Command[0], h.Command[1:]...)
	ownGroup(cmd)
	cmd.WaitDelay = waitDelay
	cmd.Stdin = bytes.NewReader(input)
	stdout := &capped{max: maxStdout}
	stderr := &capped{max: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = os.Environ()
	if cwd != "" {
		cmd.Dir = cwd
		if _, set := os.LookupEnv("CLAUDE_PROJECT_DIR"); !set {
			cmd.Env = append(cmd.Env, "CLAUDE_PROJECT_DIR="+cwd)
		}
	}
	err := cmd.Run()
	out := output{stdout: stdout.Bytes(), stderr: stderr.Bytes(), code: cmd.ProcessState.ExitCode()} // -1 when it never ran
	switch {
	case ctx.Err() != nil:
		return out, ctx.Err()
	case tctx.Err() != nil:
		return out, errTimeout
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) && !errors.Is(err, exec.ErrWaitDelay) {
		return out, err
	}
	return out, nil
}

// capped is a buffer that keeps the first max bytes and drops the rest,
// still reading, so a chatty hook is not blocked on a full pipe.
type capped struct {
	bytes.Buffer
	max int
}

// Write keeps what fits and reports all of p written.
func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
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
