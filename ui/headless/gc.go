package headless

import (
	"os"
	"runtime/debug"
)

// callGCPercent is the garbage collector's target during `elicit mcp
// call` (GOGC=300), unless GOGC is set.
const callGCPercent = 300

// collectLessOften sets the garbage collector's target for a headless
// call and returns what restores it. elicit's binary holds about 1.5 MB
// of package data for its full screen (the markdown renderer, the HTML
// sanitizer and the syntax lexers: compiled regexps and tables) that
// every collection marks, and under Go's 4 MB minimum heap it left a call
// less room between collections than a bare client on the same SDK has:
// a 1000-form call collected 114 times against the bare client's 65,
// each time marking several times as much, which was most of what the
// call cost beyond the bare client (bench/RESULTS.md). At 300 the heap a
// call keeps (that data and one form) is collected about a third as
// often, for some 8 MiB of resident memory.
func collectLessOften() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(callGCPercent)
	return func() { debug.SetGCPercent(old) }
}
