package fullscreen

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// claude-agent-acp in Auto mode asks no permission and never says
// in_progress: once its terminal is up, the command reads running and its
// clock turns (issue 35, item 11).
func TestAutoModeCommandRuns(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "claude-auto", uitest.WaitEnv+"=1")})
	d.connected()
	d.typeText("run it")
	d.key("enter")
	const title = "sleep 3; echo hi"
	d.until("the command", func() bool { return d.toolHead(title) != "" })
	d.clk.advance(3 * time.Second)
	d.feed(spinner.TickMsg{})
	if h := d.toolHead(title); !strings.Contains(h, "running · 3s") {
		t.Fatalf("tool head %q, want it running for 3s", h)
	}
	d.goAhead("1")
	d.until("completed", func() bool { return strings.Contains(d.toolHead(title), "completed · 3s") })
}

// gemini-cli names its write in a permission, elicit writes the file, and
// only then does gemini report the call with the same diff: one entry,
// one diff, and the write elicit did under its head (issue 35, item 11).
func TestReportedWriteShownOnce(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "gemini-write")})
	d.connected()
	d.typeText("write a file")
	d.key("enter")
	d.until("the permission", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	d.focus()
	d.key("1") // Allow
	d.key("enter")
	d.waitText("done: write_file")
	var tools []string
	for _, it := range d.m.tr.items {
		if it.kind == kindTool {
			tools = append(tools, it.tool.Title+" / "+it.tool.Status+" / "+it.wrote)
		}
	}
	if got := strings.Join(tools, "|"); got != "Writing to hello.txt / completed / the agent created hello.txt (26 bytes)" {
		t.Errorf("tool entries %q", got)
	}
	if s := d.screen(); strings.Count(s, "hello from the mock model") != 1 || !strings.Contains(s, "✓ the agent created hello.txt (26 bytes)") {
		t.Errorf("the write is not shown once:\n%s", s)
	}
}
