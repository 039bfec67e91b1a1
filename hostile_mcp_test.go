package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/hostile"
	"github.com/elicit-dev/elicit/internal/termout"
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
		// The form and the URL, in either order, each a program of its
		// own: Esc cancels the form (nothing typed), d declines the URL.
		for range 2 {
			tm.waitScreen("the form or the URL", func(s string) bool {
				return strings.Contains(s, "ctrl+x decline") || strings.Contains(s, urlKeys)
			})
			// The key help shows once the grace period is over: from
			// then on the keys count.
			keys, shows := "\x1b", "ctrl+x decline"
			if strings.Contains(tm.screen(), urlKeys) {
				keys, shows = "d", urlKeys
			}
			tm.send(keys)
			tm.waitScreen("the question answered", func(s string) bool { return !strings.Contains(s, shows) })
		}
		out := tm.finish()
		tm.ran("call", "result:")
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
		tm.ran("accessible call", "form:cancel url:decline")
		check(t, "accessible call", out, termout.Plain)
	})
	t.Run("full screen", func(t *testing.T) {
		tm := startPTYWith(t, mcpCommand(t))
		tm.waitScreen("the tool list", func(s string) bool { return strings.Contains(s, "› "+hostile.MCPTool+" ") })
		tm.send("\r") // the first tool: its argument form
		tm.waitScreen("the argument form", func(s string) bool { return strings.Contains(s, "enter review") })
		tm.send("\r") // the review
		tm.waitScreen("the review", func(s string) bool { return strings.Contains(s, "enter send") })
		tm.send("\r") // run it
		tm.waitScreen("the call running", func(s string) bool { return strings.Contains(s, "⟳") && !strings.Contains(s, "enter send") })
		// Its questions, in either order: Ctrl+X declines the form, d the
		// URL.
		tm.answerUntil("the result", func() bool { return tm.seen("result:") },
			reply{[]string{formKeys}, "\x18"}, reply{[]string{urlKeys}, "d"})
		out := tm.quit()
		tm.ran("full screen", "form:decline url:decline")
		checkWith(t, "full screen", out, termout.Screen, true)
	})
}
