package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/hostile"
	"github.com/elicit-dev/elicit/internal/termout"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// The black-box corpus: the real elicit binary against the hostile agent
// (internal/hostile), through every front end, to a pipe and to a
// terminal. The captured bytes must hold no control sequence elicit did
// not write itself.

var elicitBin string

// hostileAgent is the agent argv of the hostile agent
// (internal/hostile/cmd/hostile-agent): test furniture, built here, never
// linked into elicit.
var hostileAgent []string

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
	agent := filepath.Join(dir, "hostile-agent")
	if out, err := exec.Command("go", "build", "-o", agent, "./internal/hostile/cmd/hostile-agent").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the hostile agent: %v\n%s", err, out)
		os.Exit(1)
	}
	hostileAgent = []string{agent}
	testkit.SkipRaceExitSleep() // the children this binary starts exit at once
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// agentArgs runs the hostile agent as elicit's agent.
func agentArgs(flags ...string) []string {
	return append(append(flags, "--"), hostileAgent...)
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
	cmd.Stdin = strings.NewReader(stdin)
	return runCmd(t, cmd)
}

// runCmd runs cmd with pipes for stdout and stderr and returns what it
// wrote.
func runCmd(t *testing.T, cmd *exec.Cmd) (stdout, stderr []byte) {
	t.Helper()
	var out, errb testkit.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitExit(t, cmd, func() string { return "stdout:\n" + out.String() + "\nstderr:\n" + errb.String() })
	return out.Bytes(), errb.Bytes()
}

// waitExit waits for cmd, started, to exit and returns what Wait said;
// once testkit.Hang has passed, it kills cmd and fails the test with
// show().
func waitExit(t testing.TB, cmd *exec.Cmd, show func() string) error {
	t.Helper()
	var err error
	exited := make(chan struct{})
	go func() { err = cmd.Wait(); close(exited) }()
	defer func() {
		if !isClosed(exited)() { // it hangs: Until failed the test
			cmd.Process.Kill()
			<-exited
		}
	}()
	testkit.Until(t, "exit of "+strings.Join(cmd.Args, " "), isClosed(exited), func() <-chan struct{} { return exited }, show)
	return err
}

// isClosed says whether c is closed.
func isClosed(c <-chan struct{}) func() bool {
	return func() bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	}
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
// nothing cannot pass: none of the markers is in the output (text, as on
// a pipe). Any one of them will do.
func ran(t *testing.T, what string, out []byte, markers ...string) {
	t.Helper()
	ranIn(t, what, ansi.Strip(string(out)), markers)
}

// ran is the same for what the terminal showed.
func (tm *terminal) ran(what string, markers ...string) {
	tm.t.Helper()
	ranIn(tm.t, what, tm.text(), markers)
}

func ranIn(t *testing.T, what, text string, markers []string) {
	t.Helper()
	if !containsAny(text, markers) {
		marker := strings.Join(markers, " or ")
		t.Errorf("%s: %q not in the output: the scenario did not run; it ends with\n%s", what, marker, tail(text, 3000))
	}
}
