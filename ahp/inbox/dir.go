package inbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
)

// ErrOff says the inbox cannot run on this system (Windows: no Unix
// socket whose peer elicit can check).
var ErrOff = errors.New("the inbox is off on this system: no Unix socket elicit can check the peer of")

// DirError is a directory the inbox will not use, with why and the fix.
type DirError struct {
	Path, Why, Fix string
}

// Error says which directory, why, and the fix.
func (e *DirError) Error() string {
	return fmt.Sprintf("the inbox directory %s %s (%s)", e.Path, e.Why, e.Fix)
}

// Dir is the directory of the user's sockets, made if need be (mode 0700)
// and checked: $XDG_RUNTIME_DIR/elicit when XDG_RUNTIME_DIR is an
// absolute path, else elicit-UID in the system's temporary directory
// (on macOS, the user's own $TMPDIR). Either way it must be a real
// directory (not a symbolic link), the user's, and closed to everyone
// else (mode 0700): a directory another user made or can write is
// refused, whoever pointed XDG_RUNTIME_DIR there.
func Dir() (string, error) {
	if runtime.GOOS == "windows" {
		return "", ErrOff
	}
	dir := filepath.Join(os.TempDir(), "elicit-"+strconv.Itoa(os.Getuid()))
	if x := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(x) {
		dir = filepath.Join(x, "elicit")
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	return dir, checkDir(dir)
}

// checkDir refuses a directory that is a symbolic link, not a directory,
// another user's, or open to others.
func checkDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return &DirError{dir, "is a symbolic link", "remove it; elicit makes the directory itself"}
	case !fi.IsDir():
		return &DirError{dir, "is not a directory", "remove it; elicit makes the directory itself"}
	}
	if uid, ok := ownerUID(fi); !ok || uid != os.Getuid() {
		return &DirError{dir, fmt.Sprintf("belongs to another user (uid %d)", uid), "set XDG_RUNTIME_DIR to a directory of your own"}
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return &DirError{dir, fmt.Sprintf("is open to others (mode %04o)", perm), "chmod 700 " + dir}
	}
	return nil
}

// ours reports whether path is a socket the user owns: the only kind of
// file in the directory the inbox connects to or removes.
func ours(fi fs.FileInfo) bool {
	if fi.Mode().Type() != fs.ModeSocket {
		return false
	}
	uid, ok := ownerUID(fi)
	return ok && uid == os.Getuid()
}
