package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/elicit-dev/elicit/internal/hostile"
	"github.com/elicit-dev/elicit/internal/termout"
)

// The black-box corpus: the real elicit binary against the hostile agent
// (internal/hostile), through every front end, to a pipe and to a
// terminal. The captured bytes must hold no control sequence elicit did
// not write itself.

var elicitBin string

func TestMain(m *testing.M) {
	if os.Getenv(hostileMCPEnv) == "1" { // this binary as the hostile MCP server
		if err := hostile.RunMCP(context.Background()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "elicit-hostile")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	elicitBin = filepath.Join(dir, "elicit")
	if bin := os.Getenv("ELICIT_TEST_BINARY"); bin != "" {
		elicitBin = bin // another build: to see a test fail without its fix
	} else if out, err := exec.Command("go", "build", "-o", elicitBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building elicit: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// agentArgs runs the hostile agent as elicit's agent.
func agentArgs(flags ...string) []string {
	return append(flags, "--", elicitBin, "__hostile-agent")
}

func command(scenario string, args ...string) *exec.Cmd {
	cmd := exec.Command(elicitBin, args...)
	cmd.Env = append(os.Environ(), hostile.Scenario+"="+scenario, "TERM=xterm-256color", "NO_COLOR=", "ACCESSIBLE=")
	cmd.Dir = os.TempDir()
	return cmd
}

// runPipe runs elicit with pipes for stdin, stdout and stderr.
func runPipe(t *testing.T, scenario, stdin string, args ...string) (stdout, stderr []byte) {
	t.Helper()
	cmd := command(scenario, args...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("elicit %q did not end", args)
	}
	return out.Bytes(), errb.Bytes()
}

// terminal is elicit running on a pseudo-terminal of 100x32.
type terminal struct {
	t    *testing.T
	cmd  *exec.Cmd
	pty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

func startPTY(t *testing.T, scenario string, args ...string) *terminal {
	t.Helper()
	return startPTYWith(t, command(scenario, args...))
}

// startPTYWith starts cmd on a new terminal; what it has set of stdin,
// stdout and stderr stays.
func startPTYWith(t *testing.T, cmd *exec.Cmd) *terminal {
	t.Helper()
	return startPTYKeeping(t, cmd, 0)
}

// startPTYKeeping is startPTYWith keeping only about the last keep bytes
// of the output (0: all of it), for runs that print hundreds of MB.
func startPTYKeeping(t *testing.T, cmd *exec.Cmd, keep int) *terminal {
	t.Helper()
	// The terminal becomes the controlling one through stdout: stdin may
	// be a file of input.
	f, err := pty.StartWithAttrs(cmd, &pty.Winsize{Rows: 32, Cols: 100}, &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1})
	if err != nil {
		t.Fatal(err)
	}
	// pty's ioctls leave the master in blocking mode, where Close waits for
	// the reader below, so the terminal never hangs up: a non-blocking
	// duplicate is closed at once (closing the window, in the tests that
	// do). The duplicate is close-on-exec from the start: the parallel
	// tests' children (elicit, its agents, their daemons) inherited a
	// plain dup, held the master open, and the terminal never hung up.
	if fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0); err == nil && syscall.SetNonblock(fd, true) == nil {
		f.Close()
		f = os.NewFile(uintptr(fd), f.Name())
	}
	tm := &terminal{t: t, cmd: cmd, pty: f, done: make(chan struct{})}
	go func() {
		defer close(tm.done)
		buf := make([]byte, 32*1024)
		for {
			n, err := f.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			if keep > 0 && tm.out.Len() > 2*keep {
				tm.out.Next(tm.out.Len() - keep)
			}
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		f.Close()
	})
	return tm
}

// waitFor waits until the output holds one of ss (as plain text), or a
// deadline.
func (tm *terminal) waitFor(ss ...string) bool {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		tm.mu.Lock()
		plain := ansi.Strip(tm.out.String())
		tm.mu.Unlock()
		for _, s := range ss {
			if strings.Contains(plain, s) {
				return true
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	tm.t.Logf("waited in vain for %q", ss)
	return false
}

// seen reports whether the output holds one of ss (as plain text) now.
func (tm *terminal) seen(ss ...string) bool {
	tm.mu.Lock()
	plain := ansi.Strip(tm.out.String())
	tm.mu.Unlock()
	for _, s := range ss {
		if strings.Contains(plain, s) {
			return true
		}
	}
	return false
}

func (tm *terminal) send(s string) {
	tm.pty.WriteString(s)
	time.Sleep(300 * time.Millisecond)
}

// finish waits for elicit to end (killing it after a while) and returns
// everything it wrote.
func (tm *terminal) finish() []byte {
	exited := make(chan struct{})
	go func() { tm.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		tm.t.Log("elicit did not end; killed")
		tm.cmd.Process.Kill()
		<-exited
	}
	select { // the reader ends when the last of the terminal's users does
	case <-tm.done:
	case <-time.After(5 * time.Second):
	}
	tm.pty.Close()
	<-tm.done
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return append([]byte(nil), tm.out.Bytes()...)
}

// fromTTY undoes the terminal's newline translation (ONLCR), so a CR that
// elicit wrote itself still shows.
func fromTTY(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// check holds captured bytes to a policy and to the markers of the
// attacks: no window title, clipboard write or blinking or hidden text
// from the agent, whatever the policy allows elicit itself.
func check(t *testing.T, what string, out []byte, p termout.Policy) {
	t.Helper()
	checkWith(t, what, out, p, true)
}

// checkWith is check; agentSGR false skips the blinking-or-hidden-text check.
func checkWith(t *testing.T, what string, out []byte, p termout.Policy, agentSGR bool) {
	t.Helper()
	if len(out) == 0 {
		t.Errorf("%s: no output at all", what)
		return
	}
	if bytes.Contains(out, []byte("panic:")) {
		t.Errorf("%s: elicit panicked:\n%s", what, out[bytes.Index(out, []byte("panic:")):][:min(600, len(out)-bytes.Index(out, []byte("panic:")))])
	}
	if msg := termout.Check(out, p); msg != "" {
		t.Errorf("%s: %s\n%s", what, msg, around(out, msg))
	}
	var state byte
	parser := ansi.NewParser()
	for rest := out; len(rest) > 0; {
		seq, _, n, next := ansi.DecodeSequence(rest, state, parser)
		state, rest = next, rest[n:]
		switch {
		case ansi.HasOscPrefix(seq) && agentOSC(seq):
			t.Errorf("%s: the agent's OSC got through: %q", what, seq)
		case agentSGR && ansi.HasCsiPrefix(seq) && ansi.Cmd(parser.Command()).Final() == 'm' && blinkOrConceal(parser.Params()):
			at := len(out) - len(rest)
			t.Errorf("%s: blinking or hidden text (the agent's SGR): %q in\n%q", what, seq, ansi.Strip(string(out[max(0, at-300):min(len(out), at+100)])))
		}
	}
}

// agentOSC reports whether an OSC is one of the attacks': a title that
// starts with the marker (the agent's name may carry it as text further
// on) or a clipboard write of the marker.
func agentOSC(seq []byte) bool {
	num, data, _ := bytes.Cut(seq[2:], []byte(";"))
	switch string(num) {
	case "0", "1", "2":
		return bytes.HasPrefix(data, []byte(hostile.TitleMarker))
	case "52":
		return bytes.Contains(data, []byte(hostile.ClipboardMarker))
	}
	return false
}

// blinkOrConceal reports whether SGR parameters turn on blinking (5, 6) or
// hidden (8) text, which elicit's styles never use, skipping the arguments
// of extended colours (38, 48, 58).
func blinkOrConceal(params ansi.Params) bool {
	for i := 0; i < len(params); i++ {
		v := params[i].Param(0)
		switch v {
		case 5, 6, 8:
			return true
		case 38, 48, 58:
			for params[i].HasMore() && i+1 < len(params) { // colon form: 38:5:n
				i++
			}
			if i+1 < len(params) && !params[i].HasMore() {
				switch params[i+1].Param(0) {
				case 5:
					i += 2
				case 2:
					i += 4
				}
			}
		}
	}
	return false
}

// around shows where in out a problem is, for the failure message.
func around(out []byte, msg string) string {
	i := bytes.IndexAny(out, "\x1b\u009b\u202e\u200b\u200d")
	if i < 0 {
		i = 0
	}
	return fmt.Sprintf("%q", out[max(0, i-80):min(len(out), i+160)])
}

// ran fails when the agent's turn visibly did not happen, so a check over
// nothing cannot pass. Any one of the markers will do: a full screen is
// drawn in pieces, so a phrase may never be written whole.
func ran(t *testing.T, what string, out []byte, markers ...string) {
	t.Helper()
	plain := ansi.Strip(string(out))
	found := false
	for _, m := range markers {
		found = found || strings.Contains(plain, m)
	}
	if !found {
		marker := strings.Join(markers, " or ")
		t.Errorf("%s: %q not in the output: the scenario did not run; it ends with\n%s", what, marker, plain[max(0, len(plain)-3000):])
	}
}
