//go:build unix

package acpconn

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// elicitBinary builds the real elicit command once per test run.
func elicitBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "elicit-e2e")
		if buildErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "elicit"), "github.com/elicit-dev/elicit").CombinedOutput()
		if err != nil {
			buildErr = &buildFailure{err, out}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, "elicit")
}

type buildFailure struct {
	err error
	out []byte
}

func (b *buildFailure) Error() string { return b.err.Error() + "\n" + string(b.out) }

// elicitP starts `elicit -p hi [flags] -- <scripted agent>` in dir.
func elicitP(t *testing.T, dir, agent string, env []string, flags ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	self, err := os.Executable()
	must(t, err)
	args := append([]string{"-p", "hi", "--cwd", dir}, flags...)
	args = append(args, "--", self, "-test.run=^$")
	cmd := exec.Command(elicitBinary(t), args...)
	cmd.Env = append(append(os.Environ(), env...), "ACPCONN_TEST_AGENT="+agent)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	must(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, &out
}

// waitExit waits for cmd to exit.
func waitExit(t *testing.T, cmd *exec.Cmd, out *bytes.Buffer) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(testkit.Hang):
		t.Fatalf("elicit did not exit after %v: it hangs:\n%s", testkit.Hang, out)
	}
}

// Issue case 6: a real signal to a real `elicit -p` ends the agent's whole
// group, whether it comes mid-turn or while the agent is still starting.
func TestSignalToElicitEndsTheAgentGroup(t *testing.T) {
	cases := []struct {
		name, agent string
		sig         syscall.Signal
	}{
		{"SIGTERM mid-turn", "e2e-hang", syscall.SIGTERM},
		{"SIGINT mid-turn", "e2e-hang", syscall.SIGINT},
		{"SIGHUP mid-turn", "e2e-hang", syscall.SIGHUP},
		{"SIGTERM at start-up", "silent-start", syscall.SIGTERM},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, pidfile := spawnEnv(t, "ignore-term")
			cmd, out := elicitP(t, t.TempDir(), tc.agent, env)
			leader, _ := pids(t, pidfile)
			if tc.agent == "e2e-hang" {
				testkit.Until(t, "the agent's prompt", func() bool {
					_, err := os.Stat(pidfile + ".prompted")
					return err == nil
				}, nil, nil)
			}
			must(t, cmd.Process.Signal(tc.sig))
			waitExit(t, cmd, out)
			if live := liveMembers(t, leader); len(live) > 0 {
				t.Errorf("after elicit exited, the agent's group still runs:\n%s\nelicit said:\n%s", strings.Join(live, "\n"), out)
			}
			if cmd.ProcessState.ExitCode() == 0 {
				t.Errorf("elicit exited 0 after %v", tc.sig)
			}
		})
	}
}

// Issue case 5: under -p without --approve the agent's fs/write_text_file
// is refused; with --approve it goes through.
func TestHeadlessRefusesWritesWithoutApprove(t *testing.T) {
	reqs := `ACPCONN_FS_REQS=[["fs/write_text_file",{"path":"written.txt","content":"x"}]]`
	for _, approve := range []bool{false, true} {
		dir := t.TempDir()
		var flags []string
		if approve {
			flags = []string{"--approve"}
		}
		cmd, out := elicitP(t, dir, "fs-requests", []string{reqs}, flags...)
		waitExit(t, cmd, out)
		_, err := os.Stat(filepath.Join(dir, "written.txt"))
		if approve != (err == nil) {
			t.Errorf("approve=%v: file written=%v\n%s", approve, err == nil, out)
		}
		if !approve && !strings.Contains(out.String(), "refused") {
			t.Errorf("no word of the refusal:\n%s", out)
		}
	}
}
