package fullscreen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A panic under guardPanic writes a crash log with the stack and panics
// on, so the program's own recovery still restores the terminal.
func TestPanicWritesCrashLog(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	crashMu.Lock()
	crashPath = ""
	crashMu.Unlock()
	var again any
	func() {
		defer func() { again = recover() }()
		func() {
			defer guardPanic()
			panic("boom in Update")
		}()
	}()
	if again != "boom in Update" {
		t.Fatalf("panic not passed on: %v", again)
	}
	path := CrashLog()
	if path == "" {
		t.Fatal("no crash log")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "panic: boom in Update") || !strings.Contains(string(b), "crash_test.go") {
		t.Errorf("crash log lacks the panic or the stack:\n%s", b)
	}
}

// Issue 31: the crash logs (a panic's, and the fatal error's CatchFatal
// keeps) never go through a symbolic link planted as elicit's cache
// directory: they go to the temporary directory instead, private.
func TestCrashLogsNeverFollowALink(t *testing.T) {
	cache, elsewhere, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("TMPDIR", tmp)
	if err := os.Symlink(elsewhere, filepath.Join(cache, "elicit")); err != nil {
		t.Fatal(err)
	}
	crashMu.Lock()
	crashPath = ""
	crashMu.Unlock()
	func() {
		defer func() { _ = recover() }()
		defer guardPanic()
		panic("boom")
	}()
	fatal, stop := CatchFatal()
	defer stop()
	for _, path := range []string{CrashLog(), fatal} {
		fi, err := os.Lstat(path)
		if err != nil || filepath.Dir(path) != tmp || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Errorf("crash log %q: %v %v", path, fi, err)
		}
	}
	if names, _ := os.ReadDir(elsewhere); len(names) != 0 {
		t.Errorf("written through the link: %v", names)
	}
}
