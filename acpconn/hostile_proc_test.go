//go:build unix

package acpconn

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// pids waits for the "leader child" line a spawning agent writes.
func pids(t *testing.T, file string) (leader, child int) {
	t.Helper()
	testkit.Until(t, "pids from the agent", func() bool {
		b, err := os.ReadFile(file)
		if err != nil {
			return false
		}
		_, err = fmt.Sscanf(string(b), "%d %d", &leader, &child)
		return err == nil
	}, nil, nil)
	return leader, child
}

// liveMembers lists, as ps sees them, the processes of group pgid that are
// not zombies (a zombie runs nothing; this machine's init reaps late).
func liveMembers(t *testing.T, pgid int) []string {
	t.Helper()
	out, err := exec.Command("ps", "-eo", "pid=,pgid=,stat=,args=").Output()
	if err != nil {
		t.Fatal(err)
	}
	var live []string
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) < 3 || f[1] != strconv.Itoa(pgid) || strings.HasPrefix(f[2], "Z") {
			continue
		}
		live = append(live, strings.TrimSpace(l))
	}
	return live
}

// spawnEnv asks the agent to start a child of the given kind in its group.
func spawnEnv(t *testing.T, child string) (env []string, pidfile string) {
	pidfile = filepath.Join(t.TempDir(), "pids")
	return []string{"ACPCONN_SPAWN=1", "ACPCONN_PIDFILE=" + pidfile, "ACPCONN_CHILD=" + child}, pidfile
}

// Issue case 6: the agent exits first (its normal exit on end of input, at
// quit); its child, in its group, must not survive Close.
func TestCloseEndsTheGroupWhenTheAgentExitsFirst(t *testing.T) {
	for _, child := range []string{"sleep", "ignore-term"} {
		t.Run(child, func(t *testing.T) {
			env, pidfile := spawnEnv(t, child)
			c := start(t, "idle", Config{Env: env})
			leader, kid := pids(t, pidfile)
			if leader != c.Pid() {
				t.Fatalf("leader %d, agent %d", leader, c.Pid())
			}
			c.Close()
			if live := liveMembers(t, leader); len(live) > 0 {
				t.Errorf("after Close, the agent's group still runs (child %d):\n%s", kid, strings.Join(live, "\n"))
			}
		})
	}
}

// Issue case 7: a 2 MiB stderr line neither stops the reading nor gets the
// agent killed by SIGPIPE; the tail keeps a truncated form of it.
func TestStderrLongLineKeepsTheAgentAlive(t *testing.T) {
	c := start(t, "stderr-flood", Config{})
	c.StartPrompt("go")
	end, evs := until[TurnEnded](t, c)
	if end.Err != nil || agentText(evs) != "alive" {
		t.Fatalf("turn: %v %q", end.Err, agentText(evs))
	}
	stderr := func() string { return strings.Join(c.StderrTail(), "\n") }
	testkit.Until(t, "stderr after the long line (it stopped being read)", func() bool { return strings.Contains(stderr(), "after the long line") }, nil, nil)
	tail := c.StderrTail()
	for _, l := range tail {
		if len(l) > 64<<10 {
			t.Errorf("a tail line of %d bytes was kept whole", len(l))
		}
	}
	if ex := c.Close(); ex.Signal == "SIGPIPE" {
		t.Error("the agent died of SIGPIPE")
	}
}

// Issue case 8: 3,000 updates before initialize is answered must not
// deadlock the start.
func TestUpdatesBeforeInitializeDoNotDeadlock(t *testing.T) {
	c := start(t, "flood-before-init", Config{})
	c.StartPrompt("go")
	end, evs := until[TurnEnded](t, c)
	if end.Err != nil {
		t.Fatal(end.Err)
	}
	if got := agentText(evs); strings.Contains(got, "early") || !strings.Contains(got, "late") {
		t.Errorf("transcript %.100q: updates from before the session must not be mixed in", got)
	}
}
