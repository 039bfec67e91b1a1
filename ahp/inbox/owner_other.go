//go:build !unix

package inbox

import "io/fs"

// ownerUID cannot tell a file's owner here (the inbox is off: ErrOff).
func ownerUID(fs.FileInfo) (int, bool) { return -1, false }
