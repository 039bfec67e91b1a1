//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/hostile"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// Issue 27, cases 11, 12 and 14, through the real binary: the files elicit
// reads and writes for itself (config, history, audit log, trace) cannot
// be turned against the user by whoever can write their directories.

// frontEnds are the ways to start a session; each runs elicit on a
// terminal except -p, which runs on pipes.
var frontEnds = []struct {
	name string
	args []string
}{{"-p", []string{"-p", "go"}}, {"accessible", []string{"--accessible"}}, {"full screen", nil}}

// runEnv runs elicit with extra environment in the front end given by
// args (on a terminal unless -p) and returns what it wrote and its exit
// status; it fails the test when elicit does not end by itself.
func runEnv(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := command(hostile.ScenarioNoQuest, args...)
	cmd.Env = append(cmd.Env, env...)
	start := time.Now()
	var out string
	if len(args) > 0 && args[0] == "-p" {
		var b testkit.Buffer
		cmd.Stdout, cmd.Stderr = &b, &b
		must(t, cmd.Start())
		waitExit(t, cmd, b.String)
		out = b.String()
	} else {
		tm := startPTYWith(t, cmd)
		out = ansi.Strip(string(fromTTY(tm.finish())))
	}
	if d := time.Since(start); d > 25*time.Second {
		t.Errorf("elicit %q took %s to end", args, d)
	}
	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	return out, code
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A FIFO in place of the history's answers.json is refused with a
// message in every front end, and never hangs the start.
func TestHostileHistoryFIFO(t *testing.T) {
	state := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(state, "elicit"), 0o700))
	must(t, syscall.Mkfifo(filepath.Join(state, "elicit", "answers.json"), 0o600))
	for _, fe := range frontEnds {
		out, code := runEnv(t, []string{"XDG_STATE_HOME=" + state}, agentArgs(fe.args...)...)
		if code == 0 || !strings.Contains(out, "answers.json is not a regular file") {
			t.Errorf("%s: exit %d:\n%s", fe.name, code, out)
		}
	}
}

// A config file others can write is refused in every front end and by
// `elicit config check`, with the fix.
func TestHostileConfigWritableByOthers(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, "elicit", "config.toml")
	must(t, os.MkdirAll(filepath.Dir(path), 0o700))
	must(t, os.WriteFile(path, []byte("[[hooks]]\nevent = \"Elicitation\"\ncommand = [\"/bin/true\"]\n"), 0o644))
	must(t, os.Chmod(path, 0o666))
	env := []string{"XDG_CONFIG_HOME=" + home}
	for _, fe := range frontEnds {
		out, code := runEnv(t, env, agentArgs(fe.args...)...)
		if code != 2 || !strings.Contains(out, "chmod go-w "+path) {
			t.Errorf("%s: exit %d:\n%s", fe.name, code, out)
		}
	}
	cmd := exec.Command(elicitBin, "config", "check")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "chmod go-w "+path) {
		t.Errorf("config check: %v:\n%s", err, out)
	}
}

// --audit and --log never write through a symbolic link; the audit log
// must be the user's own, mode 0600; the message says what to do.
func TestHostileAuditAndLogFiles(t *testing.T) {
	dir := t.TempDir()
	bashrc := filepath.Join(dir, "bashrc")
	must(t, os.WriteFile(bashrc, []byte("# mine\n"), 0o644))
	link := filepath.Join(dir, "link")
	must(t, os.Symlink(bashrc, link))
	open := filepath.Join(dir, "open.jsonl")
	must(t, os.WriteFile(open, nil, 0o644))
	for _, tc := range []struct{ flag, path, want string }{
		{"--audit", link, "symbolic link"}, {"--log", link, "symbolic link"},
		{"--audit", open, "chmod 600 " + open},
	} {
		out, code := runEnv(t, nil, agentArgs(tc.flag, tc.path, "-p", "go")...)
		if code == 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%s %s: exit %d:\n%s", tc.flag, filepath.Base(tc.path), code, out)
		}
	}
	// elicit mcp opens its --log the same way.
	mcp := exec.Command(elicitBin, "mcp", "tools", "--log", link, "--", "/bin/false")
	if out, err := mcp.CombinedOutput(); err == nil || !strings.Contains(string(out), "symbolic link") {
		t.Errorf("mcp --log through a link: %v:\n%s", err, out)
	}
	if b, _ := os.ReadFile(bashrc); string(b) != "# mine\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	// A new audit log is made private; the trace quotes what is not JSON.
	audit, trace := filepath.Join(dir, "new", "audit.jsonl"), filepath.Join(dir, "trace.log")
	if out, code := runEnv(t, nil, agentArgs("--audit", audit, "--log", trace, "-p", "go")...); code != 0 && code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, p := range []string{audit, trace} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v", filepath.Base(p), err)
		}
	}
	if b, _ := os.ReadFile(trace); bytes.ContainsAny(b, "\x1b\a") || len(b) == 0 {
		t.Errorf("the trace holds raw escapes (or nothing): %d bytes", len(b))
	}
}
