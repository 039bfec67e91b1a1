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
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, err
	}
	f, err = os.CreateTemp(dir, pattern) // O_EXCL: nothing there, no link, is opened
	if err != nil {
		return nil, nil, err
	}
	name := f.Name()
	if err := Private(f, name); err != nil {
		f.Close()
		os.Remove(name)
		return nil, nil, err
	}
	remove = func() {}
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		remove = func() { os.Remove(name) } // an open file keeps its name on Windows
	}
	return f, remove, nil
}
