package fullscreen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// goAhead lets the scripted agent print the next piece of its command's
// output (see uitest.WaitEnv).
func (d *driver) goAhead(n string) {
	d.t.Helper()
	if err := os.WriteFile(filepath.Join(d.m.acp().conn.Root(), "go"+n), nil, 0o644); err != nil {
		d.t.Fatal(err)
	}
}

// toolHead is the first line of the tool call entry holding title.
func (d *driver) toolHead(title string) string {
	for _, l := range strings.Split(d.screen(), "\n") {
		if strings.Contains(l, title) && strings.Contains(l, "[execute]") {
			return l
		}
	}
	return ""
}

// claude-agent-acp's command, through the _meta extension: allowed, the
// call reads "running" before the agent says anything; its running time
// shows (from the agent's beat, then by elicit's clock); each line of
// output appears as it comes; the exit ends the clock. The reply after it
// and Claude Code's warning without a message id are entries of their own.
func TestClaudeCommandStreamsLive(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "claude", uitest.WaitEnv+"=1")})
	d.connected()
	d.typeText("run it")
	d.key("enter")
	d.until("the permission", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	d.focus()
	d.key("1")
	d.key("enter")
	const title = "for i in 1 2; do echo line $i"
	d.until("running", func() bool { return strings.Contains(d.toolHead(title), "running") })
	d.goAhead("1")
	d.until("the agent's beat", func() bool { return strings.Contains(d.toolHead(title), "in progress · 2s") })
	d.clk.advance(3 * time.Second)
	d.feed(spinner.TickMsg{})
	d.until("the clock", func() bool { return strings.Contains(d.toolHead(title), "in progress · 5s") })
	d.goAhead("2")
	d.waitText("line 1")
	if strings.Contains(d.screen(), "line 2") {
		t.Fatal("line 2 before it was printed")
	}
	d.goAhead("3")
	d.goAhead("4")
	d.waitText("line 2")            // an unfinished line waits for its end, or the exit, as terminal/* output does
	d.waitText("│ [exit status 0]") // on a line of its own
	if strings.Contains(d.screen(), "[terminal toolu_1]") {
		t.Errorf("the terminal's id is shown:\n%s", d.screen())
	}
	d.until("completed", func() bool { return strings.Contains(d.toolHead(title), "completed · 5s") })
	d.clk.advance(time.Minute)
	d.feed(spinner.TickMsg{})
	d.waitText("Warning:")
	if h := d.toolHead(title); !strings.Contains(h, "completed · 5s") {
		t.Errorf("the clock went on after the exit: %q", h)
	}
	var blocks []string
	for _, it := range d.m.tr.items {
		if it.kind == kindAgent {
			blocks = append(blocks, it.body.String())
		}
	}
	if strings.Join(blocks, "|") != "Calling Bash.|done: Bash: line 1|"+uitest.WarningText {
		t.Errorf("agent messages %q", blocks)
	}
}

// codex-acp's command: in progress from the start, each terminal_output
// chunk appended as it comes, the exit code shown.
func TestCodexCommandStreamsLive(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "codex", uitest.WaitEnv+"=1")})
	d.connected()
	d.typeText("run it")
	d.key("enter")
	const title = "for i in 1 2; do echo line $i"
	d.until("in progress", func() bool { return strings.Contains(d.toolHead(title), "in progress · 0s") })
	d.goAhead("1")
	d.waitText("line 1")
	d.clk.advance(90 * time.Second)
	d.feed(spinner.TickMsg{})
	d.until("the clock", func() bool { return strings.Contains(d.toolHead(title), "in progress · 1m30s") })
	d.goAhead("2")
	d.waitText("line 2")
	d.goAhead("3")
	d.waitText("[exit status 3]")
	d.waitText("done: exec_command")
	if h := d.toolHead(title); !strings.Contains(h, "failed · 1m30s") {
		t.Errorf("tool head %q", h)
	}
}

// A rejected permission never reads "running", and no clock starts.
func TestRejectedCommandNeverRuns(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "claude")})
	d.connected()
	d.typeText("run it")
	d.key("enter")
	d.until("the permission", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	d.focus()
	d.key("2")
	d.key("enter")
	d.waitText("Warning:")
	h := d.toolHead("for i in 1 2; do echo line $i")
	if !strings.Contains(h, "failed") || strings.Contains(h, "·") || strings.Contains(d.screen(), "running") {
		t.Errorf("tool head %q", h)
	}
}
