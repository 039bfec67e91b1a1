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

	"github.com/elicit-dev/elicit/internal/testkit"
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

	out := &testkit.Buffer{}
	pr, pw := io.Pipe()
	done := make(chan int)
	go func() { done <- Run(Options{Agent: uitest.DemoConfig(t), In: pr, Out: out}) }()
	sig := <-sigs
	out.WaitFor(t, "Connected to")
	io.WriteString(pw, "/later 1\n")
	out.WaitFor(t, "I will ask you something in 1 s")
	sig <- syscall.SIGTSTP // as Ctrl+Z sends it
	<-stopped
	out.WaitFor(t, "Suspended; fg resumes elicit.")
	// The question is handled "while stopped" here, as after a real fg the
	// agent's messages can be before this goroutine runs again.
	out.WaitFor(t, "While elicit was suspended, the agent asked this:\n\nPermission:")
	close(release)
	out.WaitFor(t, "Resumed. The question above still waits for your answer.")
	out.WaitFor(t, "Type an option's number or name") // asked: a line typed before is ignored
	io.WriteString(pw, "1\n")
	out.WaitFor(t, "you allowed the edit")
	mu.Lock()
	now = now.Add(resumeWindow + time.Second)
	mu.Unlock()
	io.WriteString(pw, "/edit\n")
	out.WaitCount(t, "Permission:", 2) // the next question
	if strings.Count(out.String(), "While elicit was suspended") != 1 {
		t.Errorf("a question long after fg was announced:\n%s", out.String())
	}
	pw.Close()
	<-done
}
