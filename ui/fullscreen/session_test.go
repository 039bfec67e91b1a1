package fullscreen

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

func (d *driver) connected() {
	d.t.Helper()
	d.until("the session", func() bool { return d.m.acp().connState == connReady })
}

func TestPromptPermissionAndReply(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.waitText("Demo agent")
	d.typeText("hello there")
	d.key("enter")
	d.until("the permission modal", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	if !strings.Contains(d.screen(), "Add a note to NOTES.md") {
		t.Errorf("modal lacks the tool call:\n%s", d.screen())
	}
	d.keys("1", "enter") // typed while the question docks: it goes to the prompt
	if d.m.queue.front() == nil {
		t.Fatal("typing answered the question")
	}
	if d.m.acp().input.Value() != "1" {
		t.Fatalf("the prompt lost what was typed: %q", d.m.acp().input.Value())
	}
	d.focus()
	d.keys("1", "enter")
	d.until("the turn to end", func() bool { return d.m.acp().turn == turnIdle })
	d.waitText("you allowed the edit once")
	if !strings.Contains(d.screen(), "ready") {
		t.Errorf("status bar:\n%s", d.screen())
	}
	tool := d.m.tr.tools
	if len(tool) == 0 {
		t.Fatal("no tool calls in the transcript")
	}
	for id, it := range tool {
		if it.tool.Status != "completed" && it.tool.Status != "failed" {
			t.Errorf("tool %s left %s", id, it.tool.Status)
		}
	}
}

func TestCtrlCCancelsTurnThenQuits(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.typeText("/slow")
	d.key("enter")
	d.until("streaming", func() bool { return d.m.tr.current != nil })
	d.key("ctrl+c")
	if d.m.acp().turn != turnCancelling {
		t.Fatalf("turn %v after ctrl+c", d.m.acp().turn)
	}
	d.until("the cancelled turn", func() bool { return d.m.acp().turn == turnIdle })
	d.waitText("turn cancelled")
	d.clk.advance(5 * time.Second)
	d.keys("ctrl+c", "ctrl+c")
	d.until("quit", func() bool { return d.quit })
}

func TestEnterWhileRunningKeepsText(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.typeText("/slow")
	d.key("enter")
	d.until("streaming", func() bool { return d.m.tr.current != nil })
	d.typeText("next question")
	d.key("enter")
	if d.m.acp().input.Value() != "next question" {
		t.Errorf("prompt text lost: %q", d.m.acp().input.Value())
	}
	d.waitText("a turn is running")
}

func TestNewlineKeys(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.typeText("a")
	d.key("ctrl+j")
	d.typeText("b")
	if got := d.m.acp().input.Value(); got != "a\nb" {
		t.Errorf("value %q", got)
	}
}

func TestHistoryAndCommandCompletion(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.until("the agent's commands", func() bool { return len(d.m.acp().commands) > 0 })
	d.typeText("/he")
	d.waitText("/help  List these commands")
	d.key("tab")
	if got := d.m.acp().input.Value(); got != "/help " {
		t.Fatalf("completed to %q", got)
	}
	d.key("enter")
	d.until("the turn", func() bool { return d.m.acp().turn == turnIdle && len(d.m.tr.items) > 2 })
	d.typeText("half typed")
	d.key("up")
	if got := d.m.acp().input.Value(); got != "/help" {
		t.Errorf("up recalled %q", got)
	}
	d.key("down")
	if got := d.m.acp().input.Value(); got != "half typed" {
		t.Errorf("down restored %q", got)
	}
}

// With --answers, forms are answered from the file and defaults without
// a modal, and the transcript says what was sent.
func TestAnswersFileAnswersFormsInSession(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t), Answers: map[string]json.RawMessage{"name": json.RawMessage(`"Ada"`)}})
	d.connected()
	d.typeText("/form defaults")
	d.key("enter")
	d.until("the turn", func() bool { d.screen(); return d.m.acp().turn == turnIdle && len(d.m.tr.items) > 3 })
	if d.m.queue.front() != nil {
		t.Fatal("a form was shown despite --answers")
	}
	d.waitText(`answered form "Check your profile.`)
	d.waitText(`"name": "Ada"`)
}

// Ctrl+O lists the agent's modes and options; picking one changes it, and
// the agent behaves accordingly (the demo's "auto" mode asks no permission).
func TestSettingsChangeMode(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.key("ctrl+o")
	d.waitText("Session settings")
	d.waitText("mode Ask  ← current — Ask permission before editing files")
	d.waitText("Pace: Instant")
	d.focus()
	d.key("2") // mode Auto
	d.until("the mode", func() bool { return d.m.acp().session.Mode == "auto" })
	d.waitText("mode Auto")
	d.typeText("hello")
	d.key("enter")
	d.until("the turn", func() bool { return d.m.acp().turn == turnIdle && len(d.m.tr.items) > 3 })
	d.waitText("edited without asking (auto mode)")
}

// The status bar says a second Ctrl+C quits only while it would: once
// the window has passed, the hint leaves (a press then arms anew), and
// only a second press within the window quits.
func TestCtrlCHintLastsItsWindow(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.key("ctrl+c")
	d.waitText("ctrl+c again quits")
	d.clk.advance(confirmWindow)
	// The window's end is a message that redraws the screen (the screen
	// changes only on one): the press is disarmed by it.
	d.until("the press disarmed", func() bool { return d.m.armed.what == "" })
	if strings.Contains(d.screen(), "ctrl+c again quits") {
		t.Fatal("the hint outlived its window")
	}
	d.key("ctrl+c") // a first press again: it does not quit
	if d.quit {
		t.Fatal("a press after the window quit")
	}
	d.waitText("ctrl+c again quits")
	d.key("ctrl+c")
	d.until("quit", func() bool { return d.quit })
}

// A turn that ends on its own while its cancel is on the way (the agent
// had already answered) says so: the user who pressed Ctrl+C learns the
// cancel came too late, and "cancelling the turn…" is not the last word.
func TestTurnEndedBeforeTheCancel(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.m.acp().turn = turnCancelling // Ctrl+C pressed; the agent's answer was on the way
	d.m.acp().apply(acpconn.TurnEnded{StopReason: "end_turn"})
	if d.m.acp().turn != turnIdle {
		t.Errorf("turn %v after the turn's end", d.m.acp().turn)
	}
	d.waitText("the turn ended before the cancel reached the agent: end turn")
}
