package safefile

import (
	"errors"
	"io/fs"
	"os"
)

// Scratch makes a new private file in dir for elicit's own use while it
// runs (the full screen's older transcript text): dir is made (mode 0700)
// when missing; the file is created exclusively under a fresh name
// (pattern as os.CreateTemp takes it) with mode 0600, opened for reading
// and writing, and checked with Private. Where the system allows it (Unix)
// its name is removed at once, so nothing is left behind however elicit
// ends; remove deletes the name where that could not be done then (call it
// once f is closed), and does nothing otherwise.
func Scratch(dir, pattern string) (f *os.File, remove func(), err error) {
	f, err = fresh(dir, pattern)
	if err != nil {
		return nil, nil, err
	}
	name := f.Name()
	remove = func() {}
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		remove = func() { os.Remove(name) } // an open file keeps its name on Windows
	}
	return f, remove, nil
}

// New makes a new private file in dir that stays (a crash log): dir is
// made (mode 0700) when missing and must not be a symbolic link itself (a
// link there would send the file wherever it points); the file is created
// exclusively under a fresh name (pattern as os.CreateTemp takes it), so
// nothing there is followed or overwritten, with mode 0600, and checked
// with Private.
func New(dir, pattern string) (*os.File, error) {
	if IsSymlink(dir) {
		return nil, &Error{Path: dir, Why: "is a symbolic link, and elicit does not write through one", Fix: "remove it"}
	}
	return fresh(dir, pattern)
}

// fresh creates a new private file in dir, which it makes when missing.
func fresh(dir, pattern string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, pattern) // O_EXCL: nothing there, no link, is opened
	if err != nil {
		return nil, err
	}
	if err := Private(f, f.Name()); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}
