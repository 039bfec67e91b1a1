package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// agentBlocks are the transcript's agent messages, in order.
func (d *driver) agentBlocks() []string {
	var blocks []string
	for _, it := range d.m.tr.items {
		if it.kind == kindAgent {
			blocks = append(blocks, it.body.String())
		}
	}
	return blocks
}

// A late update to a tool call that finished before the message began is
// no message boundary: codex-acp's code block stays one block, drawn as
// code (issue 35, item 7).
func TestLateToolUpdateKeepsMessage(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "codex-late")})
	d.connected()
	d.typeText("run it")
	d.key("enter")
	d.until("the turn's end", func() bool { return d.m.turn == turnIdle && len(d.agentBlocks()) > 0 })
	if got := strings.Join(d.agentBlocks(), "|"); got != "Calling exec_command.|"+uitest.LateText {
		t.Fatalf("agent messages %q", got)
	}
	if s := d.screen(); strings.Contains(s, "```") || !strings.Contains(s, "ID: 72596d") {
		t.Errorf("the code block is not drawn as code:\n%s", s)
	}
}
