package cmd

import (
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"

	"github.com/elicit-dev/elicit/internal/safefile"
)

// startProfiles starts what the environment asks for and returns what
// stops it and writes the files: ELICIT_CPUPROFILE=FILE, a CPU profile of
// the run; ELICIT_MEMPROFILE=FILE, its allocations (pprof's allocs
// profile; with GODEBUG=memprofilerate=1 every allocation is counted,
// which does not depend on the machine's load as CPU time does);
// ELICIT_TRACE=FILE, an execution trace (go tool trace: goroutine
// hand-offs, and what waits for a processor).
//
// Each file is written whole, mode 0600, never through a symbolic link
// (safefile.Overwrite).
//
// The variables are removed from the environment once read: the demo
// agent is elicit too, and would write its own profile over this one.
func startProfiles() (stop func()) {
	var stops []func()
	for _, v := range []string{"ELICIT_CPUPROFILE", "ELICIT_TRACE", "ELICIT_MEMPROFILE"} {
		defer os.Unsetenv(v)
	}
	if path := os.Getenv("ELICIT_CPUPROFILE"); path != "" {
		if f, err := safefile.Overwrite(path, 0o600); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
			} else {
				f.Close()
			}
		}
	}
	if path := os.Getenv("ELICIT_TRACE"); path != "" {
		if f, err := safefile.Overwrite(path, 0o600); err == nil {
			if trace.Start(f) == nil {
				stops = append(stops, func() { trace.Stop(); f.Close() })
			} else {
				f.Close()
			}
		}
	}
	if path := os.Getenv("ELICIT_MEMPROFILE"); path != "" {
		stops = append(stops, func() {
			if f, err := safefile.Overwrite(path, 0o600); err == nil {
				runtime.GC() // the profile's counts are as of the last GC
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
