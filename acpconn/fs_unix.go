//go:build unix

package acpconn

import (
	"io/fs"
	"syscall"
)

// openNonblock makes an open that would wait (a FIFO with no writer)
// return at once; it changes nothing for a regular file.
const openNonblock = syscall.O_NONBLOCK

// linkCount is the file's number of hard links.
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
