package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// A prompt answered with the legacy -32042 shows its URL elicitation; once
// the flow completes, the user is offered the retry, and it succeeds.
func TestLegacyURLRequiredThenRetry(t *testing.T) {
	for _, auto := range []bool{false, true} {
		name := "ask"
		if auto {
			name = "auto-retry"
		}
		t.Run(name, func(t *testing.T) {
			d := newDriver(t, Options{Agent: uitest.DemoConfig(t), AutoRetry: auto})
			d.connected()
			d.typeText("/legacy")
			d.key("enter")
			d.until("the URL consent", func() bool { _, ok := d.m.queue.front().(*urlModal); return ok })
			d.waitText("needs 1 URL flow completed")
			d.focus()
			d.keys("right", "enter")
			d.until("the flow", func() bool { return len(d.m.core.Flows()) == 1 })
			d.until("the browser", func() bool { return len(d.open.Opened()) > 0 })
			if got := d.open.Opened(); len(got) != 1 || !strings.HasPrefix(got[0], "http://127.0.0.1:") {
				t.Fatalf("opened %v", got)
			}
			uitest.ApproveFlow(t, d.m.core.Flows()[0].Q.Report.URL)
			if !auto {
				d.until("the retry offer", func() bool { _, ok := d.m.queue.front().(*retryModal); return ok })
				d.focus()
				d.keys("down", "enter")
			}
			d.waitText("Authorized")
			d.until("the turn", func() bool { return d.m.acp().turn == turnIdle })
			if len(d.m.core.Flows()) != 0 {
				t.Errorf("flow still pending")
			}
		})
	}
}

// A retry chosen while a turn runs (the -32042 turn's own end can come
// just after its flows complete; or the user sent another prompt) goes
// once that turn ends: it was dropped without a word.
func TestRetryWaitsForTheRunningTurn(t *testing.T) {
	for _, auto := range []bool{false, true} {
		t.Run(map[bool]string{false: "ask", true: "auto-retry"}[auto], func(t *testing.T) {
			d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
			d.connected()
			d.typeText("/slow")
			d.key("enter")
			d.until("streaming", func() bool { return d.m.tr.current != nil })
			d.feed(d.m.acp().retry("/legacy again", auto))
			if !auto {
				d.until("the retry offer", func() bool { _, ok := d.m.queue.front().(*retryModal); return ok })
				d.focus()
				d.keys("down", "enter")
			}
			if d.m.acp().lastPrompt != "/slow" {
				t.Fatalf("sent %q while /slow ran", d.m.acp().lastPrompt)
			}
			d.key("ctrl+c")
			d.until("the prompt sent again", func() bool { return d.m.acp().lastPrompt == "/legacy again" })
			d.waitText("turn cancelled")
			d.waitText("› /legacy again")
		})
	}
}
