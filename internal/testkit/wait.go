package testkit

import (
	"os"
	"strings"
	"testing"
	"time"
)

// Hang is the outer bound of every wait in the tests: long enough that a
// machine busy with other work never reaches it, so reaching it means the
// thing waited for is never coming (a hang), not that it came late. A
// test waits for the event it needs (a line read whole, a message on the
// wire, a process's exit) and uses Hang only to end a run that hangs.
// ELICIT_TEST_HANG (a Go duration) replaces it, to find a hang faster.
var Hang = hangBound()

func hangBound() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("ELICIT_TEST_HANG")); err == nil && d > 0 {
		return d
	}
	return 4 * time.Minute
}

// Until waits until cond holds, checking it each time the channel poke
// returns is closed (something the condition depends on changed) and at
// least every 50 ms (for conditions nothing pokes, such as a file
// appearing), and fails the test with what and show() once Hang has
// passed. poke and show may be nil.
func Until(t testing.TB, what string, cond func() bool, poke func() <-chan struct{}, show func() string) {
	t.Helper()
	if cond() {
		return
	}
	deadline := time.NewTimer(Hang)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		var woke <-chan struct{}
		if poke != nil {
			woke = poke()
			if cond() { // a change between the check and the channel
				return
			}
		}
		select {
		case <-woke:
		case <-tick.C:
		case <-deadline.C:
			msg := ""
			if show != nil {
				msg = "\n" + show()
			}
			t.Fatalf("no %s after %v: it hangs%s", what, Hang, msg)
		}
		if cond() {
			return
		}
	}
}

// WaitFor waits until what b holds, read whole, contains s; see Until.
func (l *Buffer) WaitFor(t testing.TB, s string) {
	t.Helper()
	l.WaitUntil(t, "output "+strings.TrimSpace(s), func(out string) bool { return strings.Contains(out, s) })
}

// WaitCount waits until what b holds contains s at least n times.
func (l *Buffer) WaitCount(t testing.TB, s string, n int) {
	t.Helper()
	l.WaitUntil(t, "output "+strings.TrimSpace(s), func(out string) bool { return strings.Count(out, s) >= n })
}

// WaitUntil waits until cond holds of everything b holds, checked after
// each write; see Until.
func (l *Buffer) WaitUntil(t testing.TB, what string, cond func(out string) bool) {
	t.Helper()
	Until(t, what, func() bool { return cond(l.String()) }, l.changed, l.String)
}
