// Package safefile opens every file elicit writes (the audit log, the
// --log trace, exported conversations, crash logs, the history's state
// files and their lock, profiles) so that whoever can write their
// directory (an agent, through a terminal command) cannot redirect them: a
// symbolic link in the last component is refused (O_NOFOLLOW) or replaced
// (WriteAtomic's rename), never followed; a FIFO or a device is refused
// without hanging (O_NONBLOCK, then the opened file's own Stat); elicit's
// own files are made private (mode 0600); and an existing file is replaced
// only when the caller says so (Create and New are exclusive).
//
//	f, err := safefile.Create("notes.md", 0o600) // fs.ErrExist when anything is there
//	f, err = safefile.Append(auditPath, 0o600)   // then safefile.Private(f, auditPath)
//	err = safefile.WriteAtomic(statePath, data)  // a reader sees the old file or the new one
package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Error is a file elicit will not write, with what to do about it.
type Error struct {
	Path string
	Why  string // what is wrong
	Fix  string // what the user can do
}

// Error says which file, why, and the fix.
func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s", e.Path, e.Why)
	if e.Fix != "" {
		s += " (" + e.Fix + ")"
	}
	return s
}

// Create makes a new file at path with mode perm, exclusively: when
// anything is there already, a dangling symbolic link included, it fails
// with an error that matches fs.ErrExist.
func Create(path string, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow|nonBlock, perm)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Append opens the regular file at path for appending, making it with
// mode perm when it is missing.
func Append(path string, perm fs.FileMode) (*os.File, error) {
	return open(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
}

// Replace opens the existing regular file at path for writing and empties
// it: for a file the user agreed to overwrite.
func Replace(path string) (*os.File, error) {
	return open(path, os.O_WRONLY|os.O_TRUNC, 0)
}

// open opens path with flag, refusing a symbolic link in its last
// component and anything but a regular file (checked on the opened file,
// before anything is written: O_TRUNC is applied only then).
func open(path string, flag int, perm fs.FileMode) (*os.File, error) {
	trunc := flag&os.O_TRUNC != 0
	if noFollow == 0 && IsSymlink(path) { // no O_NOFOLLOW here: checked first
		return nil, &Error{Path: path, Why: "is a symbolic link, and elicit does not write through one", Fix: "remove it, or name the file it points to"}
	}
	// A FIFO or a device is told apart before it is opened (a FIFO with
	// no reader fails the open with ENXIO, which says nothing).
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0 {
		return nil, &Error{Path: path, Why: "is not a regular file (" + Kind(fi.Mode()) + ")", Fix: "name a regular file"}
	}
	f, err := os.OpenFile(path, flag&^os.O_TRUNC|noFollow|nonBlock, perm)
	if err != nil {
		if isSymlinkErr(path, err) {
			return nil, &Error{Path: path, Why: "is a symbolic link, and elicit does not write through one", Fix: "remove it, or name the file it points to"}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &Error{Path: path, Why: "is not a regular file (" + Kind(fi.Mode()) + ")", Fix: "name a regular file"}
	}
	if err == nil && trunc {
		err = f.Truncate(0)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// IsSymlink reports whether the last component of path is a symbolic link.
func IsSymlink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// isSymlinkErr tells an open refused by O_NOFOLLOW (ELOOP on Linux and
// the BSDs, EMLINK on some) from other errors.
func isSymlinkErr(path string, err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && IsSymlink(path)
}

// Kind names what a file that is not a regular one is, for an error: "a
// directory", "a FIFO", "a socket", "a device", "a symlink".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}
