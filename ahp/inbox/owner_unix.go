//go:build unix

package inbox

import (
	"io/fs"
	"syscall"
)

// ownerUID is the uid that owns the file fi describes.
func ownerUID(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, false
	}
	return int(st.Uid), true
}
