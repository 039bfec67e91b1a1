package config

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/elicit-dev/elicit/internal/safefile"
)

// The config file names commands elicit runs (agents, hooks): like ssh
// with its config, elicit refuses one that someone else could have
// written, and any hook command file it names that someone else could
// change: owned by another user than the user or root, or writable by
// group or others. The error says the fix (chmod go-w FILE).

// maxConfigBytes bounds the config file read.
const maxConfigBytes = 1 << 20

// readTrusted reads the config file at path: a regular file (a FIFO is
// refused without hanging), that only the user (or root) can have written.
func readTrusted(path string) ([]byte, error) {
	data, err := safefile.ReadTrusted(path, maxConfigBytes, safefile.Commands)
	return data, trustError(err, path)
}

// trustError is a *safefile.Error as this package reports errors.
func trustError(err error, path string) error {
	if err == nil {
		return nil
	}
	var e *safefile.Error
	if errors.As(err, &e) {
		return &Error{Path: path, Msg: fmt.Sprintf("refused: it %s (%s)", e.Why, e.Fix)}
	}
	return err
}

// checkHooks refuses a hook whose command file someone else could change:
// its program (found on PATH when it has no slash), and any argument that
// names an existing file by its path (a script given to an interpreter).
func (c *Config) checkHooks() error {
	for _, h := range c.Hooks {
		for i, arg := range h.Command {
			path, ok := commandFile(arg, i == 0)
			if !ok {
				continue
			}
			fi, err := os.Stat(path)
			if err != nil || !fi.Mode().IsRegular() {
				continue // not there (yet): the hook fails when it runs, and says so
			}
			if err := safefile.Trusted(fi, path, safefile.Commands); err != nil {
				var e *safefile.Error
				if errors.As(err, &e) {
					return &Error{Path: c.Path, Line: h.Line, Msg: fmt.Sprintf("hook command %s refused: it %s (%s)", path, e.Why, e.Fix)}
				}
				return err
			}
		}
	}
	return nil
}

// commandFile is the file a hook's word names: the program (looked up on
// PATH when bare), or another word that is a path (absolute, ~/…, or
// with a slash).
func commandFile(word string, program bool) (string, bool) {
	if rest, ok := strings.CutPrefix(word, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest), true
		}
	}
	if strings.ContainsRune(word, '/') {
		return word, true
	}
	if program {
		if p, err := exec.LookPath(word); err == nil {
			return p, true
		}
	}
	return "", false
}
