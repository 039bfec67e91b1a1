package headless

import (
	"runtime/debug"
	"testing"
)

// gcPercent reads the garbage collector's target without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// A call collects less often, and restores the target after; GOGC set by
// the user wins.
func TestCollectLessOften(t *testing.T) {
	t.Setenv("GOGC", "")
	before := gcPercent()
	restore := collectLessOften()
	if got := gcPercent(); got != callGCPercent {
		t.Errorf("during a call: GOGC %d, want %d", got, callGCPercent)
	}
	restore()
	if got := gcPercent(); got != before {
		t.Errorf("after: GOGC %d, want %d again", got, before)
	}
	t.Setenv("GOGC", "50")
	collectLessOften()()
	if got := gcPercent(); got != before {
		t.Errorf("with GOGC set: %d, want it left at %d", got, before)
	}
}
