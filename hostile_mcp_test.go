package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/hostile"
	"github.com/elicit-dev/elicit/internal/termout"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// hostileMCPEnv makes this test binary the hostile MCP server
// (hostile.MCPServer) when elicit starts it.
const hostileMCPEnv = "ELICIT_TEST_HOSTILE_MCP"

// mcpCommand is `elicit mcp ARGS -- <the hostile MCP server>`.
func mcpCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := command("", append(append([]string{"mcp"}, args...), "--", self)...)
	cmd.Env = append(cmd.Env, hostileMCPEnv+"=1")
	return cmd
}

// TestHostileMCPPipe: `elicit mcp tools` and `elicit mcp call` with every
// stream a pipe, against a server whose every string is hostile (tool
// titles, log and progress messages, the form, the URL, results and
// errors): not one ESC or C1 byte out.
func TestHostileMCPPipe(t *testing.T) {
	answers := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(answers, []byte(`{"e":"a","m":["x"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		marker string // in stdout or stderr: the run got that far
	}{
		{"tools", []string{"tools"}, hostile.MCPTool},
		// Nobody consents to the URL, and nobody said no: cancelled.
		{"call with answers", []string{"call", hostile.MCPTool, "--answers", answers}, "form:accept url:cancel"},
		// Protocol 2025-11-25: the questions come as requests inside the
		// call (the default, 2026-07-28, returns them as input requests).
		{"call with answers, 2025-11-25", []string{"call", hostile.MCPTool, "--answers", answers, "--protocol", "2025-11-25"}, "form:accept url:cancel"},
		// --decline is the person's no, given in advance: to forms and URLs.
		{"call declining", []string{"call", hostile.MCPTool, "--decline"}, "form:decline url:decline"},
		{"call that fails", []string{"call", hostile.MCPFailTool}, "tool error:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr := runCmd(t, mcpCommand(t, tc.args...))
			ran(t, tc.name, append(append([]byte(nil), stdout...), stderr...), tc.marker)
			if len(stdout) > 0 {
				check(t, "stdout", stdout, termout.Pipe)
			}
			if len(stderr) > 0 {
				check(t, "stderr", stderr, termout.Pipe)
			}
		})
	}
}

// TestHostileMCPTerminal: `elicit mcp call` asking on a terminal (the
// form, then the URL consent), and the full screen's tool list, argument
// form, questions and result: only elicit's own sequences reach the
// terminal.
func TestHostileMCPTerminal(t *testing.T) {
	t.Run("call", func(t *testing.T) {
		tm := startPTYWith(t, mcpCommand(t, "call", hostile.MCPTool))
		tm.waitFor("PWNED") // the form or the URL, in either order
		// Esc cancels the form (nothing typed); d declines the URL.
		for i := 0; i < 6 && !tm.seen("result:"); i++ {
			tm.send("\x1b")
			tm.send("d")
		}
		out := tm.finish()
		ran(t, "call", out, "result:")
		check(t, "call", out, termout.Screen)
	})
	t.Run("call, accessible", func(t *testing.T) {
		// 2025-11-25: the form, then the URL, each asked inside the call.
		tm := startPTYWith(t, mcpCommand(t, "call", hostile.MCPTool, "--accessible", "--protocol", "2025-11-25"))
		tm.waitFor("form message")
		tm.send("\x04") // end of input at the form's first prompt: cancel
		tm.waitFor("Type open")
		tm.send("no\r") // decline the URL
		out := fromTTY(tm.finish())
		ran(t, "accessible call", out, "form:cancel url:decline")
		check(t, "accessible call", out, termout.Plain)
	})
	t.Run("full screen", func(t *testing.T) {
		tm := startPTYWith(t, mcpCommand(t))
		tm.waitFor("PWNED") // the tool list, with the tools' hostile titles
		tm.send("\r")       // the first tool: its argument form
		tm.waitFor("argument")
		tm.send("\r") // the review
		tm.send("\r") // run it
		// Its questions dock (a key came just before): Tab gives them the
		// keys; after the grace, Ctrl+X declines the form and d the URL.
		// Neither does anything on the tool list (Esc there would cancel
		// the call), so a key that lands before a question has the keys
		// on a loaded machine costs only another round.
		for i := 0; i < 12 && !tm.seen("result:"); i++ {
			tm.send("\t")
			time.Sleep(600 * time.Millisecond)
			tm.send("\x18")
			time.Sleep(600 * time.Millisecond)
			tm.send("d")
		}
		tm.send("\x03")
		tm.send("\x03")
		out := tm.finish()
		ran(t, "full screen", out, "form:decline url:decline")
		checkWith(t, "full screen", out, termout.Screen, true)
	})
}

// runCmd runs cmd with pipes and returns what it wrote.
func runCmd(t *testing.T, cmd *exec.Cmd) (stdout, stderr []byte) {
	t.Helper()
	var out, errb testkit.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("elicit %q did not end", cmd.Args)
	}
	return out.Bytes(), errb.Bytes()
}
