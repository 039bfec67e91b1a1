package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// TestSpinnerStillWhileTheAgentWaits checks that an open question stops the
// spinner (the agent waits on the user, and an idle screen must not redraw
// twelve times a second) and that answering it starts the spinner again.
func TestSpinnerStillWhileTheAgentWaits(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/form enums")
	d.frontForm()
	if d.m.src.busy() {
		t.Fatal("the spinner is wanted while the agent waits for an answer")
	}
	if _, cmd := d.m.Update(d.m.spin.Tick()); cmd != nil {
		t.Fatal("a spinner tick scheduled the next one while a question is open")
	}
	if d.m.spinning {
		t.Fatal("the spinner still counts as turning")
	}
	if s := d.screen(); !strings.Contains(s, "⏸ waiting · 1 question") {
		t.Fatalf("the status bar does not say the agent waits for the user:\n%s", s)
	}

	d.key("esc") // an untouched form cancels at once; the agent's reply is still to come
	if d.m.acp().turn == turnIdle {
		t.Fatal("the turn ended before the agent answered")
	}
	if !d.m.spinning {
		t.Fatal("the turn runs on after the answer but the spinner did not start again")
	}
	d.idle()
}
