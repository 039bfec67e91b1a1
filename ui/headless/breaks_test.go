package headless

import (
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// -p keeps the agents' messages apart: claude-agent-acp's reply, its next
// one (another id) and Claude Code's warning (no id) are paragraphs;
// codex-acp sends no ids, and its text before and after a tool call are
// paragraphs too.
func TestHeadlessMessageBreaks(t *testing.T) {
	for _, c := range []struct{ agent, want string }{
		{"claude", "Calling Bash.\n\ndone: Bash: line 1\n\n" + uitest.WarningText + "\n"},
		{"codex", "Calling exec_command.\n\ndone: exec_command: line 1\n"},
		{"noids-permission", "Before.\n\nAfter.\n"},
		// A late update to a finished call is no boundary: the code block
		// stays whole (issue 35, item 7).
		{"codex-late", "Calling exec_command.\n\n" + uitest.LateText + "\n"},
		// A user message between two replies is (item 10).
		{"noids-user", "First reply.\n\nSecond reply.\n"},
	} {
		code, stdout, stderr := runHeadless(t, Options{Agent: uitest.ScriptConfig(t, c.agent), Approve: true})
		if code != ExitOK || stdout != c.want {
			t.Errorf("%s: exit %d, stdout %q, want %q; stderr %s", c.agent, code, stdout, c.want, stderr)
		}
	}
}
