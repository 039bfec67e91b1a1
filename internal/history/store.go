package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/elicit-dev/elicit/internal/safefile"
)

// Version is the format of the files this package writes. A file of a
// newer version is refused rather than rewritten in the older format.
const Version = 1

const (
	answersFile = "answers.json"
	sitesFile   = "sites.json"
	lockFile    = "lock"
)

// Store is the history in one state directory. It keeps only the last
// answers file it decoded, and checks with os.Stat on every read that the
// file is still that one, so several processes see each other's writes. A
// nil *Store is history turned off: reads find nothing and writes do
// nothing, without error.
type Store struct {
	dir   string
	cache answersCache
	// Now is the clock for RememberAnswers; tests set it. Nil means time.Now.
	Now func() time.Time
}

// CorruptError is a history file that exists but cannot be read. Nothing
// writes over it.
type CorruptError struct {
	Path string
	Err  error
}

// Error says which file and what to do.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("history: %s is damaged (%v); elicit will not write over it: move it away, or run `elicit history clear`", e.Path, e.Err)
}

// Unwrap returns the decoding error.
func (e *CorruptError) Unwrap() error { return e.Err }

// DefaultDir is $XDG_STATE_HOME/elicit, or ~/.local/state/elicit when
// XDG_STATE_HOME is unset or relative.
func DefaultDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "elicit")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = "."
	}
	return filepath.Join(home, ".local", "state", "elicit")
}

// Open makes dir (mode 0700) if needed and checks that the files in it can
// be read: a damaged file is a *CorruptError now rather than at the first
// question.
func Open(dir string) (*Store, error) {
	s, err := open(dir)
	if err != nil {
		return nil, err
	}
	if err := read(s.path(answersFile), &answers{}); err != nil {
		return nil, err
	}
	if err := read(s.path(sitesFile), &sites{}); err != nil {
		return nil, err
	}
	return s, nil
}

// OpenDir makes dir (mode 0700) if needed without reading the files in
// it: for `elicit history clear`, which must work on a damaged file (it is
// how one recovers).
func OpenDir(dir string) (*Store, error) { return open(dir) }

// open makes the directory without reading the files.
func open(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("history: no state directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return &Store{dir: dir}, nil
}

// Dir is the state directory.
func (s *Store) Dir() string {
	if s == nil {
		return ""
	}
	return s.dir
}

func (s *Store) path(name string) string { return filepath.Join(s.dir, name) }

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// versioned is what every file holds at its top level.
type versioned interface{ version() int }

// read decodes the file at path into v; a missing file leaves v empty.
func read(path string, v versioned) error {
	data, err := readRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &CorruptError{Path: path, Err: err}
	}
	if n := v.version(); n > Version {
		return &CorruptError{Path: path, Err: fmt.Errorf("format version %d, newer than this elicit's %d", n, Version)}
	}
	return nil
}

// maxFileBytes bounds a history file read: the files are kept small
// (MaxForms, MaxSuggestions), so anything larger is not elicit's.
const maxFileBytes = 64 << 20

// readRegular reads the state file at path (safefile.ReadRegular): a
// FIFO put in its place (by anything that can write the state directory,
// an agent's command included) cannot hang elicit at start-up, in any
// front end.
func readRegular(path string) ([]byte, error) {
	data, err := safefile.ReadRegular(path, maxFileBytes, nil)
	var e *safefile.Error
	if errors.As(err, &e) {
		return nil, fmt.Errorf("%s %s; elicit will not read it: move it away, or run with --no-history", path, e.Why)
	}
	return data, err
}

// update reads the file under the directory's exclusive lock, lets change
// edit it, and replaces the file when change reports a change.
func update[T any, P interface {
	*T
	versioned
}](s *Store, name string, change func(P) bool) error {
	unlock, err := lock(s.path(lockFile))
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	defer unlock()
	var v T
	p := P(&v)
	if err := read(s.path(name), p); err != nil {
		return err
	}
	if !change(p) {
		return nil
	}
	return writeFile(s.path(name), p)
}

// writeFile replaces path atomically (safefile.WriteAtomic): a reader
// sees the old file or the new one, never a part, and a symbolic link put
// in its place is replaced, never written through.
func writeFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if err := safefile.WriteAtomic(path, append(data, '\n')); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}
