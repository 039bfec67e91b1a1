package cmd

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/fullscreen"
)

// crashing is a full screen that crashes at once, where says how: a panic
// in Init's command, in Update, in View, or a fatal error (unlocking an
// unlocked mutex: no recover catches it).
type crashing struct{ where string }

type crashMsg struct{}

func (c crashing) Init() tea.Cmd {
	return func() tea.Msg {
		if c.where == "command" {
			panic("boom in a command")
		}
		return crashMsg{}
	}
}

func (c crashing) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(crashMsg); !ok {
		return c, nil
	}
	switch c.where {
	case "update":
		panic("boom in Update")
	case "fatal":
		var mu sync.Mutex
		mu.Unlock()
	}
	return crashing{"view-next"}, nil
}

func (c crashing) View() tea.View {
	if c.where == "view-next" {
		panic("boom in View")
	}
	return tea.NewView("")
}

// runCrashing runs a crashing screen as every full screen runs.
func runCrashing(where string) (string, error) {
	var stderr bytes.Buffer
	_, err := runScreen(newScreenProgram(crashing{where}, tea.WithInput(nil), tea.WithOutput(io.Discard)), &stderr)
	return stderr.String(), err
}

// Issue 34, item 9: every full screen takes one crash path: a panic in a
// command, in Update or in View ends the program (bubbletea restores the
// terminal), writes a crash log, and stderr says where it is.
func TestScreenCrashPath(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for where, boom := range map[string]string{"command": "boom in a command", "update": "boom in Update", "view": "boom in View"} {
		t.Run(where, func(t *testing.T) {
			stderr, err := runCrashing(where)
			if !errors.Is(err, tea.ErrProgramPanic) {
				t.Fatalf("err %v", err)
			}
			path := fullscreen.CrashLog()
			if !strings.Contains(stderr, "elicit crashed; the crash log is at "+path) {
				t.Errorf("stderr %q does not name the crash log %s", stderr, path)
			}
			b, err := os.ReadFile(path)
			if err != nil || !strings.Contains(string(b), "panic: "+boom) || !strings.Contains(string(b), "crash_test.go") {
				t.Errorf("crash log %s: %v\n%s", path, err, b)
			}
		})
	}
	// The fatal error's log is removed when nothing was written to it.
	logs, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "elicit", "crash-*.log"))
	if len(logs) != 3 {
		t.Errorf("crash logs %q, want the 3 panics' only", logs)
	}
}

// A fatal error, which no recover catches, still leaves its report in a
// crash log: on the terminal it goes with the alternate screen.
func TestScreenFatalErrorLogged(t *testing.T) {
	if os.Getenv("ELICIT_TEST_FATAL_SCREEN") != "" {
		runCrashing("fatal")
		return
	}
	cache := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestScreenFatalErrorLogged$")
	cmd.Env = append(os.Environ(), "ELICIT_TEST_FATAL_SCREEN=1", "XDG_CACHE_HOME="+cache)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the screen did not crash:\n%s", out)
	}
	logs, _ := filepath.Glob(filepath.Join(cache, "elicit", "crash-*.log"))
	if len(logs) != 1 {
		t.Fatalf("crash logs %q\n%s", logs, out)
	}
	if b, _ := os.ReadFile(logs[0]); !strings.Contains(string(b), "a fatal error") || !strings.Contains(string(b), "sync.(*Mutex).Unlock") || !strings.Contains(string(b), "crash_test.go") {
		t.Errorf("crash log:\n%s", b)
	}
}
