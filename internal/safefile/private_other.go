//go:build !unix

package safefile

import "os"

// Without O_NOFOLLOW and O_NONBLOCK (Windows), the opened file's own Stat
// still refuses anything but a regular file.
const (
	noFollow = 0
	nonBlock = 0
)

// Private is a no-op where file ownership and modes are not Unix ones.
func Private(*os.File, string) error { return nil }

// Trusted is a no-op where file ownership and modes are not Unix ones.
func Trusted(os.FileInfo, string, Power) error { return nil }
