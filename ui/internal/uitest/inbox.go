package uitest

import (
	"os"
	"testing"
)

// RuntimeDir points XDG_RUNTIME_DIR at a new private directory (mode
// 0700, short enough for a socket's path) for the test, so the sessions it
// publishes to the inbox are its own, and returns it.
func RuntimeDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "rt-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_RUNTIME_DIR", dir)
	return dir
}
