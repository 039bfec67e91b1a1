package testkit

import (
	"testing"
	"time"
)

// Recv waits for a value on ch (a result a goroutine sends, a process's
// exit) and returns it; a closed channel gives the zero value. It fails
// the test, saying what did not come, once Hang has passed: a hang.
func Recv[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	deadline := time.NewTimer(Hang)
	defer deadline.Stop()
	select {
	case v := <-ch:
		return v
	case <-deadline.C:
		t.Fatalf("no %s after %v: it hangs", what, Hang)
	}
	var zero T
	return zero
}
