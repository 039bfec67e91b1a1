//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/elicit-dev/elicit/internal/hostile"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// escapeSteps leave a daemon from a terminal command and one from the
// agent, start a terminal command that ignores SIGTERM and SIGHUP and is
// never released, and ask a form, whose hook leaves a daemon too (and
// declines).
const escapeSteps = "escape,agent-escape,stubborn,form"

// checkDaemons waits until the four daemons and the stubborn command
// noted their pids, and fails unless they run: the process table after
// exit proves nothing otherwise. (The stubborn command notes its pid as
// it starts, which the turn does not wait for: its end may come first.)
func (r *procRun) checkDaemons() {
	r.t.Helper()
	testkit.Until(r.t, "4 daemons and stubborn commands noting their pids", func() bool { return len(r.daemons()) >= 4 }, nil,
		func() string { return fmt.Sprintf("pids %v; reports %v", r.daemons(), r.reports()) })
	pids := r.daemons()
	for _, p := range pids {
		if !pidRunning(p) {
			r.t.Errorf("daemon %d is not running before elicit exits", p)
		}
	}
}

// Issue 27, items 6 and 8: however elicit ends, in every front end,
// nothing it started outlives it: not the terminal command that ignores
// SIGTERM (elicit waits out the grace and the SIGKILL, when the terminal
// hangs up too), nor the daemons a command, the agent and a hook left in
// sessions of their own.
func TestNothingOutlivesElicit(t *testing.T) {
	type exitCase struct {
		name string
		args []string
		// end ends elicit once the turn is over; under says elicit runs
		// under a shell that leads the terminal's session (as under
		// script(1) or a terminal window's shell), and the shell ignores
		// SIGHUP with nohup (under nohup, or a test run under it): then no
		// signal comes at all, and only the terminal says it is gone.
		end          func(tm *terminal, r *procRun)
		under, nohup bool
	}
	keys := func(k ...string) func(*terminal, *procRun) {
		return func(tm *terminal, _ *procRun) {
			for _, s := range k {
				tm.send(s)
			}
		}
	}
	signal := func(s syscall.Signal) func(*terminal, *procRun) {
		return func(_ *terminal, r *procRun) { _ = r.cmd.Process.Signal(s) }
	}
	hangUp := func(tm *terminal, _ *procRun) { tm.pty.Close() }
	cases := []exitCase{
		{"full screen/ctrl+c", nil, func(tm *terminal, _ *procRun) { tm.pressQuit() }, false, false},
		{"full screen/SIGHUP", nil, signal(syscall.SIGHUP), false, false},
		{"full screen/SIGTERM", nil, signal(syscall.SIGTERM), false, false},
		{"full screen/hang-up", nil, hangUp, false, false},
		{"full screen/hang-up under a shell", nil, hangUp, true, false},
		{"full screen/hang-up under nohup", nil, hangUp, true, true},
		{"accessible/ctrl+d", []string{"--accessible"}, keys("\x04", "\x04"), false, false},
		{"accessible/SIGHUP", []string{"--accessible"}, signal(syscall.SIGHUP), false, false},
		{"accessible/SIGTERM", []string{"--accessible"}, signal(syscall.SIGTERM), false, false},
		{"accessible/hang-up under a shell", []string{"--accessible"}, hangUp, true, false},
		{"accessible/hang-up under nohup", []string{"--accessible"}, hangUp, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newProcRun(t, escapeSteps, hookCmd(hostile.ScenarioHookTTY), nil, tc.args...)
			cmd := r.cmd
			if tc.under {
				script := `"$0" "$@"; exit 0`
				if tc.nohup {
					script = `trap "" HUP; ` + script
				}
				cmd = exec.Command("sh", append([]string{"-c", script}, r.cmd.Args...)...)
				cmd.Env, cmd.Dir = r.cmd.Env, r.cmd.Dir
				r.cmd = cmd
			}
			tm := startPTYWith(t, cmd)
			if strings.HasPrefix(tc.name, "full screen") {
				tm.waitFor(connected)
			} else {
				tm.waitFor("Type a prompt")
			}
			tm.send("go\r")
			if r.waitStep("end", 1) {
				r.checkDaemons()
			}
			elicit := r.cmd.Process.Pid
			if tc.under {
				elicit = childOf(elicit)
			}
			tc.end(tm, r)
			r.wait()
			// Under a shell, the shell goes at the hang-up: elicit is what
			// must have ended what it started before it exits.
			testkit.Until(t, "exit of elicit", func() bool { return !pidRunning(elicit) }, nil, r.processes)
			r.noSurvivors(tc.name)
		})
	}
}

// childOf is the first child of pid found in /proc, or 0.
func childOf(pid int) int {
	names, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			c, _ := strconv.Atoi(filepath.Base(filepath.Dir(n)))
			return c
		}
	}
	return 0
}

// The same for -p: at the end of the turn, at a signal mid-turn, and when
// its stdout is closed before it writes (SIGPIPE).
func TestNothingOutlivesElicitP(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sig   syscall.Signal // 0: the turn ends
		pipe  bool           // stdout closed at once
		serve bool           // elicit serve -p: the same, behind an AHP host
	}{
		{"end of turn", 0, false, false},
		{"SIGINT mid-turn", syscall.SIGINT, false, false},
		{"SIGTERM mid-turn", syscall.SIGTERM, false, false},
		{"SIGHUP mid-turn", syscall.SIGHUP, false, false},
		{"stdout closed", 0, true, false},
		{"serve/SIGTERM mid-turn", syscall.SIGTERM, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			steps := escapeSteps
			if tc.sig != 0 {
				steps += ",hang"
			}
			r := newProcRun(t, steps, hookCmd(hostile.ScenarioHookTTY), nil, "-p", "go", "--approve")
			if tc.serve {
				r.cmd.Args = slices.Insert(r.cmd.Args, 1, "serve", "--token-file", filepath.Join(t.TempDir(), "token"))
			}
			var out strings.Builder
			r.cmd.Stderr = &out
			if tc.pipe {
				pr, pw, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				pr.Close() // every write fails: EPIPE, or SIGPIPE when not held
				r.cmd.Stdout = pw
				defer pw.Close()
			} else {
				r.cmd.Stdout = &out
			}
			if err := r.cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = r.cmd.Process.Kill() })
			if tc.sig != 0 {
				if r.waitStep("hang", 1) {
					r.checkDaemons()
				}
				_ = r.cmd.Process.Signal(tc.sig)
			} else {
				r.waitStep("end", 1)
			}
			r.wait()
			r.noSurvivors(tc.name)
			if tc.sig != 0 && (r.cmd.ProcessState.ExitCode() != 128+int(tc.sig) || !strings.Contains(out.String(), ": the agent was ended")) {
				t.Errorf("exit %d, want %d, and the signal said", r.cmd.ProcessState.ExitCode(), 128+int(tc.sig))
			}
			if t.Failed() {
				t.Logf("elicit said:\n%s", out.String())
			}
		})
	}
}
