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

// Trusted is the one check of a file that gives power to whoever can
// write it (p says what power: the config file and hooks run commands, a
// token file answers for the user), as ssh checks its config: it must be
// owned by the user or by root, and writable by no one else (no group or
// other write permission); a Token file, a secret, must also be readable
// by no one else. The error says how to fix it.
func Trusted(fi os.FileInfo, path string, p Power) error {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() && st.Uid != 0 {
		return &Error{Path: path, Why: fmt.Sprintf("belongs to another user (uid %d), who could %s", st.Uid, p),
			Fix: "use a file of your own"}
	}
	perm := fi.Mode().Perm()
	if perm&0o022 != 0 {
		fix := "chmod go-w " + path
		if p == Token {
			fix = "chmod 600 " + path
		}
		return &Error{Path: path, Why: fmt.Sprintf("is writable by others (mode %04o), who could %s", perm, p), Fix: fix}
	}
	if p == Token && perm&0o044 != 0 {
		return &Error{Path: path, Why: fmt.Sprintf("can be read by others (mode %04o), who could %s", perm, p), Fix: "chmod 600 " + path}
	}
	return nil
}
