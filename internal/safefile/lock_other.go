//go:build !unix

package safefile

import (
	"os"
	"time"
)

// LockTimeout is how long Lock waits for another process's lock.
const LockTimeout = 10 * time.Second

// Lock relies on O_APPEND and atomic renames alone where there is no flock.
func Lock(*os.File, time.Duration) (func(), error) { return func() {}, nil }
