//go:build unix

package ahp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Issue 34, item 5: a token file is read only when the user alone
// controls it; a missing one is made with mode 0600; a FIFO is refused
// without hanging.
func TestTokenFileIsTheUsersAlone(t *testing.T) {
	dir := t.TempDir()
	made := filepath.Join(dir, "new")
	tok, err := TokenFile(made)
	if fi, _ := os.Stat(made); err != nil || len(tok) < 16 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("a new token file: %v %v", fi, err)
	}
	if again, err := TokenFile(made); err != nil || again != tok {
		t.Fatalf("read back: %q %v", again, err)
	}
	for mode, want := range map[os.FileMode]string{0o666: "writable by others", 0o640: "can be read by others"} {
		os.Chmod(made, mode)
		if _, err := TokenFile(made); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("mode %04o: %v", mode, err)
		}
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := TokenFile(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO: %v", err)
	}
}
