//go:build unix

package audit

import (
	"os"

	"github.com/elicit-dev/elicit/internal/safefile"
)

// lock takes an exclusive flock on the log for one write, waiting a
// bounded time for another process.
func lock(f *os.File) (func(), error) { return safefile.Lock(f, safefile.LockTimeout) }
