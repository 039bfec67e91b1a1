package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Overwrite opens the file at path for writing from empty, making it with
// mode perm when it is missing: for a file the user named to be written
// whole each time (a profile). Like Append, it refuses a symbolic link in
// the last component and anything but a regular file.
func Overwrite(path string, perm fs.FileMode) (*os.File, error) {
	return open(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
}

// WriteAtomic replaces the file at path with data, which a reader sees
// whole or not at all (the history's state files): data goes to a new
// private file beside it (created exclusively, mode 0600) that is then
// renamed over path. The rename replaces whatever is at path, a symbolic
// link included, and never writes through one.
func WriteAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // make the rename durable; a failure here loses nothing yet
		d.Close()
	}
	return nil
}
