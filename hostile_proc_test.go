//go:build linux

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/hostile"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// The process corpus: the real elicit binary against the hostile agent's
// process scenarios (internal/hostile/proc.go), in every front end. The
// agent, its terminal commands and a hook attack the user's terminal,
// leave daemons behind, ignore SIGTERM and flood; the tests read what the
// attackers report, the process table after elicit exits, and elicit's
// peak resident memory.

// markVar marks every process a run starts (the agent, its commands, its
// hooks and what they leave), so the process table can be searched for
// survivors after elicit exits.
const markVar = "ELICIT_TEST_MARK"

// procRun is one elicit run against the process scenarios.
type procRun struct {
	t                  *testing.T
	dir                string // the session directory
	report, pids, mark string
	cmd                *exec.Cmd
}

// newProcRun prepares elicit with args (agent flags; the hostile agent is
// added) for the steps; hook, when set, is an Elicitation hook command.
func newProcRun(t *testing.T, steps string, hook []string, env []string, args ...string) *procRun {
	t.Helper()
	tmp := t.TempDir()
	r := &procRun{t: t, dir: filepath.Join(tmp, "work"), report: filepath.Join(tmp, "report"), pids: filepath.Join(tmp, "pids"),
		mark: fmt.Sprintf("%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), time.Now().UnixNano())}
	if err := os.Mkdir(r.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(tmp, "config.toml")
	var cfg string
	if hook != nil {
		q, _ := json.Marshal(hook)
		cfg = fmt.Sprintf("[[hooks]]\nevent = \"Elicitation\"\ncommand = %s\ntimeout = \"30s\"\n", q)
	}
	if err := os.WriteFile(config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	all := append([]string{"--cwd", r.dir, "--config", config, "--no-history"}, args...)
	r.cmd = exec.Command(elicitBin, append(append(all, "--"), hostileAgent...)...)
	r.cmd.Env = append(os.Environ(), hostile.Scenario+"="+hostile.ScenarioProc, hostile.ProcSteps+"="+steps,
		hostile.ProcReport+"="+r.report, hostile.ProcPids+"="+r.pids, markVar+"="+r.mark,
		"TERM=xterm-256color", "NO_COLOR=", "ACCESSIBLE=", "XDG_CONFIG_HOME="+tmp, "XDG_STATE_HOME="+tmp, "XDG_CACHE_HOME="+tmp)
	r.cmd.Env = append(r.cmd.Env, env...)
	r.cmd.Dir = r.dir
	return r
}

// reports reads what the attackers reported so far.
func (r *procRun) reports() []map[string]any {
	b, _ := os.ReadFile(r.report)
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// step returns the reports of step.
func (r *procRun) step(step string) []map[string]any {
	var out []map[string]any
	for _, m := range r.reports() {
		if m["step"] == step {
			out = append(out, m)
		}
	}
	return out
}

// waitStep waits until n reports of step came, and fails the test when
// they do not.
func (r *procRun) waitStep(step string, n int) bool {
	r.t.Helper()
	testkit.Until(r.t, fmt.Sprintf("%d %q reports", n, step), func() bool { return len(r.step(step)) >= n }, nil,
		func() string { return fmt.Sprintf("reports: %v", r.reports()) })
	return true
}

// daemons are the pids the daemons and stubborn commands noted.
func (r *procRun) daemons() []int {
	b, _ := os.ReadFile(r.pids)
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}

// wait waits for elicit to exit; once testkit.Hang has passed, it kills
// it and fails, showing the run's processes.
func (r *procRun) wait() {
	r.t.Helper()
	waitExit(r.t, r.cmd, func() string { return "the run's processes:\n" + r.processes() })
}

// survivors lists the processes of this run that still run (zombies do
// not), found by their mark, and kills them so that the machine stays
// clean whatever the test found.
func (r *procRun) survivors() []string {
	var out []string
	names, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range names {
		env, err := os.ReadFile(dir + "/environ")
		if err != nil || !bytes.Contains(env, []byte("\x00"+markVar+"="+r.mark+"\x00")) && !bytes.HasPrefix(env, []byte(markVar+"="+r.mark+"\x00")) {
			continue
		}
		stat, _ := os.ReadFile(dir + "/stat")
		f := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
		if len(f) == 0 || f[0][0] == 'Z' || f[0][0] == 'X' {
			continue
		}
		cmdline, _ := os.ReadFile(dir + "/cmdline")
		pid, _ := strconv.Atoi(filepath.Base(dir))
		out = append(out, fmt.Sprintf("%d %s (%s)", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}), f[0]))
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	return out
}

// processes describes the run's processes, for a failure: each one's
// state, parent, session, where it waits in the kernel, its threads', and
// the terminals it holds open.
func (r *procRun) processes() string {
	var b strings.Builder
	names, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range names {
		env, err := os.ReadFile(dir + "/environ")
		if err != nil || !bytes.Contains(env, []byte(markVar+"="+r.mark+"\x00")) {
			continue
		}
		stat, _ := os.ReadFile(dir + "/stat")
		f := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
		wchan, _ := os.ReadFile(dir + "/wchan")
		cmdline, _ := os.ReadFile(dir + "/cmdline")
		fmt.Fprintf(&b, "%s %q state %s ppid %s sid %s wchan %s", filepath.Base(dir), bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}), f[0], f[1], f[3], wchan)
		tasks, _ := filepath.Glob(dir + "/task/*/wchan")
		waits := map[string]int{}
		for _, t := range tasks {
			w, _ := os.ReadFile(t)
			waits[string(w)]++
		}
		fmt.Fprintf(&b, " threads %v", waits)
		fds, _ := filepath.Glob(dir + "/fd/*")
		for _, fd := range fds {
			if l, err := os.Readlink(fd); err == nil && (strings.HasPrefix(l, "/dev/pts") || l == "/dev/ptmx") {
				fmt.Fprintf(&b, " fd %s=%s", filepath.Base(fd), l)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// noSurvivors fails when a process of the run outlived elicit.
func (r *procRun) noSurvivors(what string) {
	r.t.Helper()
	if s := r.survivors(); len(s) > 0 {
		r.t.Errorf("%s: processes outlived elicit:\n%s", what, strings.Join(s, "\n"))
	}
}

// running reports whether pid runs (a zombie does not).
func pidRunning(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
	return len(f) > 0 && f[0][0] != 'Z' && f[0][0] != 'X'
}

// watchRSS samples elicit's peak resident memory (VmHWM, which only
// grows) until it exits, and returns a function that gives the last sample
// in MiB. (wait4's ru_maxrss would not do: at exec the kernel carries the
// forking process's peak over to the child, so it reports this test's.)
func (r *procRun) watchRSS() func() int64 {
	var peak atomic.Int64
	pid := r.cmd.Process.Pid
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
			if err != nil || !pidRunning(pid) {
				return
			}
			for _, l := range strings.Split(string(b), "\n") {
				if kb, ok := strings.CutPrefix(l, "VmHWM:"); ok {
					n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(kb), " kB"), 10, 64)
					peak.Store(max(peak.Load(), n>>10))
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return func() int64 {
		<-done
		return peak.Load()
	}
}

// hookCmd is a hook running the hostile binary in scenario.
func hookCmd(scenario string) []string {
	return append([]string{"env", hostile.Scenario + "=" + scenario}, hostileAgent...)
}

// Issue 27, item 1: the agent, a terminal command and a hook each open
// /dev/tty, write a title, a clipboard write and a clear to it, push the
// keys that allow a permission (TIOCSTI) and make themselves the
// terminal's foreground; under a real terminal, in every front end, each
// fails at the open (no controlling terminal), nothing of it reaches the
// screen, and the permission is not allowed.
func TestNoChildKeepsTheTerminal(t *testing.T) {
	for _, fe := range []string{"full screen", "accessible", "-p"} {
		t.Run(fe, func(t *testing.T) {
			t.Parallel()
			steps := "tty,term-tty,form,tty-permission"
			var args []string
			switch fe {
			case "accessible":
				args = []string{"--accessible"}
			case "-p": // --approve lets the command run, and would allow the permission
				args, steps = []string{"-p", "go", "--approve"}, "tty,term-tty,form"
			}
			r := newProcRun(t, steps, hookCmd(hostile.ScenarioHookTTY), nil, args...)
			tm := startPTYWith(t, r.cmd)
			switch fe {
			case "full screen":
				tm.waitFor(connected)
				tm.send("go\r")
			case "accessible":
				tm.waitFor("Type a prompt")
				tm.send("go\r")
			}
			// The permission: after the agent's attack, the user rejects
			// it (the reject option is selected first; option 2).
			if r.waitStep("tty", 3) && fe != "-p" {
				switch fe {
				case "full screen":
					tm.answerUntil("the permission's report", func() bool { return len(r.step("permission")) > 0 }, reply{[]string{permissionKeys}, "\r"})
				case "accessible":
					tm.waitFor("number or name", "Option number")
					tm.send("2\r")
				}
			}
			r.waitStep("end", 1)
			switch fe {
			case "full screen":
				tm.pressQuit()
			case "accessible":
				tm.send("\x04\x04")
			}
			out := tm.finish()
			if os.Getenv("ELICIT_TEST_SHOW") != "" {
				t.Logf("%s", fromTTY(out))
			}
			for _, rep := range r.step("tty") {
				if rep["through"] != false || !strings.Contains(fmt.Sprint(rep["open"]), "no such device") {
					t.Errorf("the %v reached the terminal: %v", rep["who"], rep)
				}
			}
			whos := map[any]bool{}
			for _, rep := range r.step("tty") {
				whos[rep["who"]] = true
			}
			if !whos["agent"] || !whos["command"] || !whos["hook"] {
				t.Errorf("attackers that reported: %v (want the agent, a command, a hook)", whos)
			}
			for _, p := range r.step("permission") {
				if strings.Contains(fmt.Sprint(p["answer"]), "allow") {
					t.Errorf("the permission was allowed: %v", p)
				}
			}
			checkNoAgentOSC(t, out)
			r.noSurvivors(fe)
		})
	}
}

// checkNoAgentOSC fails when the attack's title or clipboard write reached
// the screen.
func checkNoAgentOSC(t *testing.T, out []byte) {
	t.Helper()
	for _, m := range []string{"\x1b]0;" + hostile.TitleMarker, "\x1b]52;c;" + hostile.ClipboardMarker} {
		if bytes.Contains(out, []byte(m)) {
			t.Errorf("the attack's %q reached the screen", m)
		}
	}
}
