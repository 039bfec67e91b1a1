//go:build unix

package line

import (
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// Ctrl+Z in the accessible session says it suspends, stops (faked here:
// a real stop would stop the test), and on fg says where the user is; a
// question the agent asked meanwhile is announced, one asked long after
// is not. (scripts/e2e-suspend.sh stops for real, under bash.)
func TestAccessibleCtrlZ(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	sigs := make(chan chan<- os.Signal, 1)
	stopped, release := make(chan struct{}, 1), make(chan struct{})
	defer func(n func(chan<- os.Signal), s func(chan os.Signal), c func() time.Time) {
		notifySuspend, stopProcess, suspendClock = n, s, c
	}(notifySuspend, stopProcess, suspendClock)
	notifySuspend = func(c chan<- os.Signal) { sigs <- c }
	stopProcess = func(chan os.Signal) { stopped <- struct{}{}; <-release }
	suspendClock = clock

	out := &syncOut{}
	pr, pw := io.Pipe()
	done := make(chan int)
	go func() { done <- Run(Options{Agent: uitest.DemoConfig(t), In: pr, Out: out}) }()
	sig := <-sigs
	waitFor(t, func() bool { return out.seen("Connected to") }, "the session", out.String)
	io.WriteString(pw, "/later 1\n")
	waitFor(t, func() bool { return out.seen("I will ask you something in 1 s") }, "the wait", out.String)
	sig <- syscall.SIGTSTP // as Ctrl+Z sends it
	<-stopped
	waitFor(t, func() bool { return out.seen("Suspended; fg resumes elicit.") }, "the suspension", out.String)
	// The question is handled "while stopped" here, as after a real fg the
	// agent's messages can be before this goroutine runs again.
	waitFor(t, func() bool { return out.seen("While elicit was suspended, the agent asked this:\n\nPermission:") }, "the announcement", out.String)
	close(release)
	waitFor(t, func() bool { return out.seen("Resumed. The question above still waits for your answer.") }, "the return", out.String)
	io.WriteString(pw, "1\n")
	waitFor(t, func() bool { return out.seen("you allowed the edit") }, "the answer", out.String)
	mu.Lock()
	now = now.Add(resumeWindow + time.Second)
	mu.Unlock()
	io.WriteString(pw, "/edit\n")
	waitFor(t, func() bool { return out.seen("Permission:") }, "the next question", out.String)
	if strings.Count(out.String(), "While elicit was suspended") != 1 {
		t.Errorf("a question long after fg was announced:\n%s", out.String())
	}
	pw.Close()
	<-done
}
