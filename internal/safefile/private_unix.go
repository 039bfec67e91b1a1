//go:build unix

package safefile

import (
	"fmt"
	"os"
	"syscall"
)

const (
	noFollow = syscall.O_NOFOLLOW
	nonBlock = syscall.O_NONBLOCK
)

// Private checks that the open file f (at path) is the user's own and
// private: a regular file owned by the user, with no permission for group
// or others (mode 0600 or stricter). The error says how to fix it.
func Private(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &Error{Path: path, Why: "is not a regular file (" + Kind(fi.Mode()) + ")", Fix: "name a regular file"}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return &Error{Path: path, Why: fmt.Sprintf("belongs to another user (uid %d)", st.Uid), Fix: "use a file of your own"}
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return &Error{Path: path, Why: fmt.Sprintf("can be read or written by others (mode %04o)", perm), Fix: "chmod 600 " + path}
	}
	return nil
}

// Trusted checks a file that names commands elicit runs (the config file,
// a hook), as ssh checks its config: it must be owned by the user or by
// root, and writable by no one else (no group or other write permission).
// The error says how to fix it.
func Trusted(fi os.FileInfo, path string) error {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() && st.Uid != 0 {
		return &Error{Path: path, Why: fmt.Sprintf("belongs to another user (uid %d), who could make elicit run anything", st.Uid),
			Fix: "use a file of your own"}
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return &Error{Path: path, Why: fmt.Sprintf("is writable by others (mode %04o), who could make elicit run anything", perm),
			Fix: "chmod go-w " + path}
	}
	return nil
}
