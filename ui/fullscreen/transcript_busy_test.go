package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/theme"
)

// TestBusyFrameReusesAFastWalk checks that a frame drawn while the agent
// floods, with nothing new since the last one (a key press, a tick), reuses
// that walk's plain text rather than rendering the blocks in sight as
// markdown, and that once the agent is quiet the next frame gives them
// their markdown.
func TestBusyFrameReusesAFastWalk(t *testing.T) {
	tr := newTranscript(newMarkdown(true, false), theme.New(true, false)) // dark: bold is drawn, not spelled
	flood := strings.Repeat("plain filler line of about sixty bytes, nothing to see\n", 90)
	tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: flood + "**bold words** end\n\n"})

	view := func(busy bool) string {
		v, _ := tr.viewHold(80, 10, 0, false, busy)
		return ansi.Strip(v)
	}
	if v := view(true); !strings.Contains(v, "**bold words**") {
		t.Fatalf("a frame after a %d-byte inflow is not drawn plain:\n%s", len(flood), v)
	}
	if v := view(true); !strings.Contains(v, "**bold words**") {
		t.Fatalf("a busy frame with nothing new rendered markdown instead of reusing the last walk:\n%s", v)
	}
	v := view(false)
	if strings.Contains(v, "**bold words**") || !strings.Contains(v, "bold words") {
		t.Fatalf("once the agent is quiet the blocks in sight did not get their markdown:\n%s", v)
	}
}

// TestQuietMessageEndsTheBusySpell checks that the model asks for one more
// frame once the agent has been quiet for busyFor (so plain pieces drawn in
// a flood get their markdown even when nothing else redraws), and not
// before.
func TestQuietMessageEndsTheBusySpell(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.m.quietPending = true
	d.m.eventsAt = d.clk.now()
	if _, cmd := d.m.Update(quietMsg{}); cmd == nil || !d.m.quietPending {
		t.Fatal("the agent was busy a moment ago, but no later look was scheduled")
	}
	d.clk.advance(busyFor)
	if _, cmd := d.m.Update(quietMsg{}); cmd != nil || d.m.quietPending {
		t.Fatal("the agent has been quiet for busyFor, but another look was scheduled")
	}
	if d.m.now().Sub(d.m.eventsAt) < busyFor {
		t.Fatal("the next frame still counts the agent as busy")
	}
}
