package fullscreen

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/theme"
)

// The agent's file reads, writes and refusals leave a trace: a write shows
// its change as a diff, a terminal's output streams into its tool call.
func TestFileAccessAndTerminalInTranscript(t *testing.T) {
	tr := newTranscript(newMarkdown(true, true), theme.New(true, true))
	old := strings.Repeat("line\n", 40)
	tr.fileAccess(acpconn.FileAccess{Op: "read", Path: "a.go", Lines: 12})
	tr.fileAccess(acpconn.FileAccess{Op: "write", Path: "b.go", Old: old, New: strings.Replace(old, "line\n", "changed\n", 1), Bytes: 200})
	tr.fileAccess(acpconn.FileAccess{Op: "refused", Attempt: "write", Path: "../x", Reason: "outside the session directory"})
	tr.toolCall(acpconn.ToolCall{ID: "t1", Title: "Run tests", Status: "in_progress"})
	tr.terminalOutput(acpconn.TerminalOutput{ToolCallID: "t1", Chunk: "ok  pkg 0.1s\n"})
	tr.terminalOutput(acpconn.TerminalOutput{ToolCallID: "t1", Exited: true, Exit: acpconn.ExitInfo{Code: 0}})
	view, _ := tr.view(100, 60, 0)
	screen := ansi.Strip(view)
	for _, want := range []string{"the agent read a.go (12 lines)", "the agent wrote b.go", "@@", "changed",
		"refused the agent's write of ../x: outside the session directory", "ok  pkg 0.1s", "[exit status 0]"} {
		if !strings.Contains(screen, want) {
			t.Errorf("transcript lacks %q:\n%s", want, screen)
		}
	}
}

// Tool content is markdown (a console block shows no fences) and
// locations inside the session directory are shown relative to it.
func TestToolContentMarkdownAndRelativeLocations(t *testing.T) {
	tr := newTranscript(newMarkdown(true, true), theme.New(true, true))
	tr.root = "/home/me/proj"
	tr.toolCall(acpconn.ToolCall{ID: "t1", Title: "Run", Status: "completed", Locations: []string{"/home/me/proj/src/a.go:12", "/etc/hosts"},
		Content: []string{"```console\n$ go test\nok\n```"}})
	view, _ := tr.view(100, 30, 0)
	screen := ansi.Strip(view)
	for _, want := range []string{"↳ src/a.go:12", "↳ /etc/hosts", "$ go test"} {
		if !strings.Contains(screen, want) {
			t.Errorf("transcript lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "```") {
		t.Errorf("fences shown literally:\n%s", screen)
	}
}
