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
