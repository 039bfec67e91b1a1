package acpconn

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/elicit-dev/elicit/internal/safefile"
)

// MaxReadBytes caps the content of one fs/read_text_file answer; a larger
// read is refused with an error that says to ask for fewer lines.
const MaxReadBytes = 10 << 20

// MaxDiffBytes is how much of a file's old and new content a FileAccess
// event carries for a diff; above it the event says "too large to diff".
const MaxDiffBytes = 256 << 10

// errRefused marks a refusal of the request itself (outside the session,
// not a regular file, hard-linked, too large, not allowed): the agent gets
// -32602 for it, and the UI a FileAccess "refused".
type errRefused struct{ reason string }

func (e errRefused) Error() string { return e.reason }

func refuse(format string, a ...any) error { return errRefused{fmt.Sprintf(format, a...)} }

// rootErr words an error from the os.Root: a path that leads out of it
// (through a symlink, even one swapped in mid-request) is a refusal. The
// os package exports no sentinel for that error, hence the message test.
func rootErr(err error) error {
	if err != nil && strings.Contains(err.Error(), "path escapes from parent") {
		return refuse("the path leads outside the session directory")
	}
	return err
}

// regular refuses anything but a regular file: a FIFO would hang a read,
// a device could do anything on open.
func regular(fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return refuse("not a regular file (%s)", safefile.Kind(fi.Mode()))
	}
	return nil
}

// openRegular opens rel under root, refusing what is not a regular file:
// first by its Stat (before a device is opened at all), then by the opened
// file's own Stat, which no swap between the two can fool; the open never
// blocks (O_NONBLOCK), so a FIFO swapped in cannot hang it.
func openRegular(root *os.Root, rel string, flag int) (*os.File, fs.FileInfo, error) {
	if fi, err := root.Stat(rel); err == nil {
		if err := regular(fi); err != nil {
			return nil, nil, err
		}
	} else if flag&os.O_CREATE == 0 || !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, rootErr(err)
	}
	f, err := root.OpenFile(rel, flag|openNonblock, 0o644)
	if err != nil {
		return nil, nil, rootErr(err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = regular(fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// readLines reads lines [line, line+limit) of rel (1-based; nil line is 1,
// nil or negative limit is to the end), streaming: what comes after is
// never read, and more than MaxReadBytes is refused. It returns the text
// and how many lines it holds.
func readLines(root *os.Root, rel string, line, limit *int) (string, int, error) {
	f, _, err := openRegular(root, rel, os.O_RDONLY)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	first := 1
	if line != nil && *line > 1 {
		first = *line
	}
	for n := 1; n < first; n++ { // skip, keeping nothing
		for {
			_, err := br.ReadSlice('\n')
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if errors.Is(err, io.EOF) {
				return "", 0, nil
			}
			if err != nil {
				return "", 0, err
			}
			break
		}
	}
	var b strings.Builder
	lines := 0
	for limit == nil || *limit < 0 || lines < *limit {
		chunk, err := br.ReadSlice('\n')
		if b.Len()+len(chunk) > MaxReadBytes {
			return "", 0, refuse("the text asked for is over %d MiB: ask for fewer lines (line, limit)", MaxReadBytes>>20)
		}
		b.Write(chunk)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(chunk) > 0 || b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
				lines++
			}
			return b.String(), lines, nil
		case err != nil:
			return "", 0, err
		}
		lines++
	}
	return b.String(), lines, nil
}

// written is what a write did, for the FileAccess event.
type written struct {
	created  bool
	old      string // the previous content, when not over MaxDiffBytes
	oldBytes int64
	tooLarge bool
}

// writeFile replaces the content of rel (creating it and its directories
// when missing) in place, so a symlink inside the session keeps pointing
// at the file it names. It refuses a file with more than one hard link:
// the other name may be outside the session directory. check sees the
// path (relative to dir, the root's directory) of the file actually
// opened, before anything is written, and may refuse it.
func writeFile(root *os.Root, dir, rel, content string, check func(real string) error) (written, error) {
	var w written
	if dir := filepath.Dir(rel); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return w, rootErr(err)
		}
	}
	_, statErr := root.Stat(rel)
	f, fi, err := openRegular(root, rel, os.O_RDWR|os.O_CREATE)
	if err != nil {
		return w, err
	}
	defer f.Close()
	w.created = errors.Is(statErr, fs.ErrNotExist)
	if real := openedRel(f, dir, rel); check(real) != nil {
		if w.created {
			root.Remove(real) // made empty just now: leave nothing behind
		}
		return w, check(real)
	}
	if n := linkCount(fi); n > 1 {
		return w, refuse("the file has %d hard links, and another may be outside the session directory", n)
	}
	w.oldBytes = fi.Size()
	if w.oldBytes > MaxDiffBytes || len(content) > MaxDiffBytes {
		w.tooLarge = true
	} else {
		old, err := io.ReadAll(io.LimitReader(f, MaxDiffBytes+1))
		if err != nil {
			return w, err
		}
		w.old = string(old)
	}
	if err := f.Truncate(0); err != nil {
		return w, err
	}
	if _, err := f.WriteAt([]byte(content), 0); err != nil {
		return w, err
	}
	return w, f.Close()
}
