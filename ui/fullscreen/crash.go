package fullscreen

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/safefile"
)

// A crash of a full screen takes one path, whichever screen it is (the
// session, elicit mcp, elicit attach, elicit serve): Guard, around the
// screen's model, writes the crash log and panics on; bubbletea recovers,
// restores the terminal and ends Run with tea.ErrProgramPanic; the caller
// (cmd's runScreen) says where the log is, and the command tree's one exit
// (cmd.Main) ends the processes the screen started. A crash no recover catches (a fatal error such as a
// stack overflow, a panic on a goroutine of elicit's own) leaves the
// terminal as it was: CatchFatal at least keeps its report.

var (
	crashMu   sync.Mutex
	crashPath string
)

// CrashLog returns the crash log written by the last panic in this
// process, or "".
func CrashLog() string {
	crashMu.Lock()
	defer crashMu.Unlock()
	return crashPath
}

// crashDir is where crash logs go: elicit's directory in the user's
// cache directory, else the temporary one.
func crashDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "elicit")
	}
	return os.TempDir()
}

// newCrashLog creates a crash log of its own (safefile.New: a fresh name,
// mode 0600, nothing followed or overwritten) in crashDir, or in the
// temporary directory when crashDir will not do (a symbolic link there).
func newCrashLog() (*os.File, error) {
	pattern := fmt.Sprintf("crash-%s-*.log", time.Now().UTC().Format("20060102T150405"))
	f, err := safefile.New(crashDir(), pattern)
	if err != nil {
		f, err = safefile.New(os.TempDir(), pattern)
	}
	return f, err
}

// guardPanic, deferred, writes a crash log for a panic and panics on, so
// that bubbletea still restores the terminal.
func guardPanic() {
	r := recover()
	if r == nil {
		return
	}
	stack := debug.Stack()
	if f, err := newCrashLog(); err == nil {
		fmt.Fprintf(f, "elicit crashed at %s\n\npanic: %v\n\n%s", time.Now().UTC().Format(time.RFC3339), r, stack)
		if f.Close() == nil {
			crashMu.Lock()
			crashPath = f.Name()
			crashMu.Unlock()
		}
	}
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

// Guard wraps a full screen's model: a panic in its Init, Update or View,
// or in a command it returned, writes a crash log (CrashLog) and panics
// on, for bubbletea to restore the terminal and end Run with
// tea.ErrProgramPanic. Every full screen runs under it.
func Guard(m tea.Model) tea.Model { return guarded{m} }

type guarded struct{ m tea.Model }

func (g guarded) Init() tea.Cmd {
	defer guardPanic()
	return guardCmd(g.m.Init())
}

func (g guarded) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer guardPanic()
	m, cmd := g.m.Update(msg)
	return guarded{m}, guardCmd(cmd)
}

func (g guarded) View() tea.View {
	defer guardPanic()
	return g.m.View()
}

// CatchFatal sends the report of a crash that no recover catches to a
// crash log as well as to stderr (where the alternate screen takes it
// away), until stop is called; stop removes the log if no crash came. It
// returns the log's path.
func CatchFatal() (path string, stop func()) {
	f, err := newCrashLog()
	if err != nil {
		return "", func() {}
	}
	// The runtime writes the stacks here; its "fatal error: ..." line goes
	// to stderr only.
	head := fmt.Sprintf("elicit crashed (a fatal error, which nothing recovers) after %s; the goroutines' stacks follow.\n", time.Now().UTC().Format(time.RFC3339))
	if _, err := io.WriteString(f, head); err != nil || debug.SetCrashOutput(f, debug.CrashOptions{}) != nil {
		f.Close()
		os.Remove(f.Name())
		return "", func() {}
	}
	var once sync.Once
	return f.Name(), func() {
		once.Do(func() {
			_ = debug.SetCrashOutput(nil, debug.CrashOptions{})
			st, err := f.Stat()
			f.Close()
			if err == nil && st.Size() == int64(len(head)) {
				os.Remove(f.Name())
			}
		})
	}
}
