package safefile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ReadRegular reads the file at path, which elicit reads at start-up (the
// config file, the history's state files): the open never blocks
// (O_NONBLOCK), so a FIFO put in its place cannot hang elicit; the opened
// file's own Stat must say it is a regular file; check (nil: none) sees
// that Stat before anything is read (Trusted, for a file that names
// commands); and it may hold at most max bytes. What is refused is an
// *Error; a missing file is the open's error (fs.ErrNotExist).
func ReadRegular(path string, max int64, check func(fs.FileInfo) error) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{Path: path, Why: "is not a regular file (" + Kind(fi.Mode()) + ")", Fix: "remove it, or put a regular file there"}
	}
	if check != nil {
		if err := check(fi); err != nil {
			return nil, err
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		return nil, &Error{Path: path, Why: fmt.Sprintf("is larger than %s, more than elicit reads from it", size(max)), Fix: "move it away"}
	}
	return data, err
}

// size is n bytes in the largest whole unit.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Power is what a file elicit reads gives whoever can write it (or, for
// a secret, read it); Trusted refuses a file that others control.
type Power int

// The powers files give.
const (
	Commands Power = iota // the config file, a hook: elicit runs what it says
	Token                 // a bearer token: whoever has it answers for the user
)

// String is the power as the refusal says it ("who could …").
func (p Power) String() string {
	if p == Token {
		return "learn the token and answer for you"
	}
	return "make elicit run anything"
}

// ReadTrusted reads a file that gives power p (ReadRegular, checked by
// Trusted before anything is read).
func ReadTrusted(path string, max int64, p Power) ([]byte, error) {
	return ReadRegular(path, max, func(fi fs.FileInfo) error { return Trusted(fi, path, p) })
}
