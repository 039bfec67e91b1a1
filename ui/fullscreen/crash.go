package fullscreen

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

var (
	crashMu   sync.Mutex
	crashPath string
)

// CrashLog returns the crash log written by a panic in this process, or "".
func CrashLog() string {
	crashMu.Lock()
	defer crashMu.Unlock()
	return crashPath
}

// crashDir is where crash logs go: the user's cache directory, else the
// temporary one.
func crashDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		dir := filepath.Join(d, "elicit")
		if os.MkdirAll(dir, 0o700) == nil {
			return dir
		}
	}
	return os.TempDir()
}

// guardPanic, deferred, writes a crash log for a panic and panics on, so
// that bubbletea still restores the terminal. main then says where the log
// is.
func guardPanic() {
	r := recover()
	if r == nil {
		return
	}
	stack := debug.Stack()
	crashMu.Lock()
	if crashPath == "" {
		path := filepath.Join(crashDir(), fmt.Sprintf("crash-%s.log", time.Now().UTC().Format("20060102T150405")))
		body := fmt.Sprintf("elicit crashed at %s\n\npanic: %v\n\n%s", time.Now().UTC().Format(time.RFC3339), r, stack)
		if os.WriteFile(path, []byte(body), 0o600) == nil {
			crashPath = path
		}
	}
	crashMu.Unlock()
	panic(r)
}

// guardCmd runs cmd (and any batch it returns) under guardPanic.
func guardCmd(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		defer guardPanic()
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			for i, c := range b {
				b[i] = guardCmd(c)
			}
		}
		return msg
	}
}

// Close ends the agent (its whole process group) if it still runs. main
// calls it after the program ends, however it ended.
func (m *Model) Close() {
	if m.conn != nil {
		m.conn.Close()
	}
	m.core.Close()
}
