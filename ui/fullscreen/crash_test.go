package fullscreen

import (
	"os"
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
