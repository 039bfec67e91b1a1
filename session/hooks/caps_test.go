package hooks

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// Issue 27, item 4: a hook that floods stdout or stderr fails as soon as
// it passes its cap, is stopped, and elicit keeps at most the cap (a
// bytes.Buffer behind io.Copy grew to gigabytes). The hook would run for
// its whole timeout otherwise.
func TestFloodingHookFailsAtItsCap(t *testing.T) {
	for _, tc := range []struct{ stream, body, want string }{
		{"stdout", "exec yes", "more than 64 KiB on stdout"},
		{"stderr", "exec yes >&2", "more than 64 KiB on stderr"},
	} {
		t.Run(tc.stream, func(t *testing.T) {
			h := script(t, t.TempDir(), "flood", tc.body, config.Elicitation)
			h.Timeout = config.Duration(time.Minute)
			done := make(chan struct{})
			var res Result
			var err error
			go func() {
				defer close(done)
				res, err = New([]config.Hook{h}).RunElicitation(context.Background(), formInput())
			}()
			testkit.Recv(t, done, "stop of the flooding hook at its cap")
			var he *Error
			if res.Decision != Pass || !errors.As(err, &he) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("res %+v, err %v: want a failure saying %q", res, err, tc.want)
			}
			if he != nil && len(he.Stderr) > 3*shownStderr { // each newline shown as " / "
				t.Errorf("the error keeps %d bytes of stderr", len(he.Stderr))
			}
		})
	}
}

func TestCappedKeepsTheCap(t *testing.T) {
	c := newCapped(10)
	for i := 0; i < 100; i++ {
		if n, err := c.Write([]byte("0123456")); n != 7 || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if string(c.bytes()) != "0123456012" {
		t.Errorf("kept %q", c.bytes())
	}
	select {
	case <-c.over:
	default:
		t.Error("over not closed")
	}
}

// Issue 27, item 6: what a hook leaves running in its group ends when the
// hook exits; a daemon it started in a session of its own ends with the
// lifecycle (elicit's exit), SIGTERM ignored or not.
func TestHookLeavesNothingBehind(t *testing.T) {
	dir := t.TempDir()
	h := script(t, dir, "leave", `sleep 300 & echo $! > "`+dir+`/child.pid"
setsid sh -c 'trap "" TERM; echo $$ > "`+dir+`/daemon.pid"; while :; do sleep 1; done' </dev/null >/dev/null 2>&1 &
while [ ! -s "`+dir+`/daemon.pid" ]; do sleep 0.01; done
echo '{}'`, config.Elicitation)
	lc := &procgroup.Lifecycle{Grace: 200 * time.Millisecond, Strays: true}
	r := New([]config.Hook{h})
	r.Lifecycle = lc
	if _, err := r.RunElicitation(context.Background(), formInput()); err != nil {
		t.Fatal(err)
	}
	child := pidIn(t, filepath.Join(dir, "child.pid"))
	daemon := pidIn(t, filepath.Join(dir, "daemon.pid"))
	t.Cleanup(func() { syscall.Kill(daemon, syscall.SIGKILL); syscall.Kill(child, syscall.SIGKILL) })
	waitGone(t, itoa(child))
	if !alive(daemon) {
		t.Fatal("the daemon is not running: the test proves nothing")
	}
	lc.Shutdown()
	if alive(daemon) {
		t.Errorf("the hook's daemon %d outlived the lifecycle", daemon)
	}
}

func pidIn(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func itoa(n int) string { return strconv.Itoa(n) }

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}
