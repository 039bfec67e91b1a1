//go:build linux

package cmd

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// endAllVar makes this test binary run one command under endAll that
// starts processes and then ends as the variable says.
const endAllVar = "ELICIT_TEST_ENDALL"

// Issue 31, item 1: endAll, around the whole command tree in Main, ends
// every process elicit started on every way out of a command: it returns,
// it fails, it panics (the panic goes on after). Each run leaves a group
// leader that ignores SIGTERM and a daemon that left its session and lost
// its parent.
func TestEndAllOnEveryWayOut(t *testing.T) {
	if mode := os.Getenv(endAllVar); mode != "" {
		endAllChild(mode, os.Getenv(endAllVar+"_DIR"))
		return
	}
	for _, tc := range []struct {
		mode string
		code int
	}{{"return", exitOK}, {"error", exitFailed}, {"panic", 2}} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestEndAllOnEveryWayOut$")
			cmd.Env = append(os.Environ(), endAllVar+"="+tc.mode, endAllVar+"_DIR="+dir)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			_ = cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != tc.code || tc.mode == "panic" && !strings.Contains(out.String(), "panic: boom") {
				t.Fatalf("exit %d, want %d:\n%s", code, tc.code, out.String())
			}
			for _, name := range []string{"leader", "daemon"} {
				b, err := os.ReadFile(filepath.Join(dir, name))
				pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				if err != nil || pid == 0 {
					t.Fatalf("no %s pid (%v): the run proves nothing\n%s", name, err, out.String())
				}
				if procRunning(pid) {
					_ = syscall.Kill(pid, syscall.SIGKILL) // the machine stays clean whatever the test found
					t.Errorf("the %s (%d) outlived the command", name, pid)
				}
			}
		})
	}
}

// endAllChild runs, under endAll, a command that starts a group through
// procgroup.Default as agents are started, waits until it and its daemon
// run, and ends as mode says.
func endAllChild(mode, dir string) {
	code := endAll(func() int {
		script := `trap "" TERM HUP
(setsid sleep 600 </dev/null >/dev/null 2>&1 & echo $! > "$1/daemon")
echo $$ > "$1/leader"
echo ready
exec sleep 600 >/dev/null`
		cmd := exec.Command("sh", "-c", script, "sh", dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			return 3
		}
		if _, err := procgroup.Default.Start(cmd); err != nil {
			return 3
		}
		if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
			return 3
		}
		switch mode {
		case "panic":
			panic("boom")
		case "error":
			return exitFailed
		}
		return exitOK
	})
	os.Exit(code)
}

// procRunning reports whether pid runs (a zombie does not).
func procRunning(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
	return len(f) > 0 && f[0][0] != 'Z' && f[0][0] != 'X'
}

// One owner: no command ends the processes by hand; endAll (and a caught
// signal, endOnSignal) in lifetime.go are the only calls of Shutdown in
// the command tree, so no new command's way out can be without one.
func TestShutdownHasOneOwner(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if f == "lifetime.go" || strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(".Shutdown()")) {
			t.Errorf("%s ends processes by hand: leave it to endAll (lifetime.go)", f)
		}
	}
}
