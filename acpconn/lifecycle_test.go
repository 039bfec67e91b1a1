//go:build unix

package acpconn

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// startAsync starts agent (not answering initialize) in a goroutine and
// returns the channel its Start error arrives on.
func startAsync(ctx context.Context, t *testing.T, agent string, cfg Config) <-chan error {
	self, err := os.Executable()
	must(t, err)
	cfg.Argv = []string{self, "-test.run=^$"}
	cfg.Env = append(append(os.Environ(), cfg.Env...), "ACPCONN_TEST_AGENT="+agent)
	cfg.Dir = t.TempDir()
	done := make(chan error, 1)
	go func() {
		c, err := Start(ctx, cfg)
		if err == nil {
			c.Close()
		}
		done <- err
	}()
	return done
}

func startErr(t *testing.T, done <-chan error) error {
	t.Helper()
	err := testkit.Recv(t, done, "return from Start")
	if err == nil {
		t.Fatal("Start succeeded")
	}
	return err
}

// Issue case 6: quitting while the agent is still starting (no connection
// yet) ends it and its group, and nothing starts after.
func TestShutdownWhileStarting(t *testing.T) {
	lc := &procgroup.Lifecycle{Grace: 200 * time.Millisecond}
	env, pidfile := spawnEnv(t, "ignore-term")
	done := startAsync(context.Background(), t, "silent-start", Config{Lifecycle: lc, Env: env})
	leader, _ := pids(t, pidfile)
	lc.Shutdown()
	err := startErr(t, done)
	if !strings.Contains(err.Error(), "shutting down") {
		t.Errorf("error %q", err)
	}
	if live := liveMembers(t, leader); len(live) > 0 {
		t.Errorf("the starting agent's group survived:\n%s", strings.Join(live, "\n"))
	}
	if _, err := Start(context.Background(), Config{Lifecycle: lc, Argv: []string{"true"}}); !errors.Is(err, procgroup.ErrShutdown) {
		t.Errorf("Start after Shutdown: %v", err)
	}
}

// Cancelling Start's context while the agent starts ends the whole group.
func TestStartCancelledByContext(t *testing.T) {
	lc := &procgroup.Lifecycle{Grace: 200 * time.Millisecond}
	env, pidfile := spawnEnv(t, "sleep")
	ctx, cancel := context.WithCancel(context.Background())
	done := startAsync(ctx, t, "silent-start", Config{Lifecycle: lc, Env: env})
	leader, _ := pids(t, pidfile)
	cancel()
	if err := startErr(t, done); !errors.Is(err, context.Canceled) {
		t.Errorf("error %q", err)
	}
	if live := liveMembers(t, leader); len(live) > 0 {
		t.Errorf("the group survived:\n%s", strings.Join(live, "\n"))
	}
	if n := lc.Running(); n != 0 {
		t.Errorf("%d groups still tracked", n)
	}
}

// Issue case 8: a start that does not answer says which request, within
// what, and progress is reported per stage.
func TestStartTimeoutNamesTheStage(t *testing.T) {
	var mu sync.Mutex
	var stages []string
	progress := func(p StartProgress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Elapsed == 0 {
			stages = append(stages, p.Stage)
		}
	}
	cfg := Config{StartTimeout: 300 * time.Millisecond, Progress: progress, Lifecycle: &procgroup.Lifecycle{Grace: 200 * time.Millisecond}}
	err := startErr(t, startAsync(context.Background(), t, "silent-start", cfg))
	if want := "the agent did not answer initialize within 300ms"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	// initialize is answered, however long it takes; then session/new
	// is given 300 ms, which the agent never answers.
	cfg.StartTimeout = testkit.Hang
	c := start(t, "slow-session", cfg)
	c.cfg.StartTimeout = 300 * time.Millisecond
	_, err = c.NewSession(context.Background())
	if want := "the agent did not answer session/new within 300ms"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(stages, ","); got != "initialize,initialize,session/new" {
		t.Errorf("progress stages %s", got)
	}
}
