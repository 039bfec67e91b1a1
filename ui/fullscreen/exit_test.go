package fullscreen

import (
	"strings"
	"syscall"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// The agent dies while a half-filled form is open: the form closes with a
// notice that keeps what was typed, the transcript stays, the exit status
// is shown, and restarting gives a new session.
func TestAgentExitMidFormThenRestart(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	first := d.m.acp().session.ID
	d.typeText("/form defaults")
	d.key("enter")
	d.until("the form", func() bool { _, ok := d.m.queue.front().(*formModal); return ok })
	d.focus()
	d.key("backspace")
	d.typeText("Ada")
	if err := syscall.Kill(d.m.acp().conn.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	d.until("the exit modal", func() bool { _, ok := d.m.queue.front().(*exitModal); return ok })
	screen := d.screen()
	for _, want := range []string{"John DoAda", "the agent exited", "killed by SIGKILL", "/form defaults"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	d.focus()
	d.keys("down", "enter")
	d.until("a new session", func() bool { return d.m.acp().connState == connReady && d.m.acp().session.ID != first })
	if !strings.Contains(d.screen(), "restarting the agent") {
		t.Errorf("no restart notice:\n%s", d.screen())
	}
}

// Esc on the "agent stopped" dialog dismisses it (it does not quit); the
// prompt says how to restart, and Ctrl+R does.
func TestAgentStoppedEscThenCtrlR(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	first := d.m.acp().session.ID
	d.typeText("/exit 3")
	d.key("enter")
	d.until("the exit dialog", func() bool { _, ok := d.m.queue.front().(*exitModal); return ok })
	d.focus()
	d.key("esc")
	if d.quit || d.m.quitting {
		t.Fatal("esc quit the program")
	}
	if d.m.queue.front() != nil {
		t.Fatal("dialog still open")
	}
	d.waitText("ctrl+r restarts the agent")
	d.typeText("hello")
	d.key("enter")
	d.waitText("there is no session: ctrl+r restarts the agent")
	d.key("ctrl+r")
	d.waitText("restart the agent with a new session")
	d.key("enter")
	d.until("a new session", func() bool { return d.m.acp().connState == connReady && d.m.acp().session.ID != first })
}

// A retry due while a turn runs waits for its end; when the agent exits
// instead (the turn fails first, then the exit comes), the prompt is not
// sent to it: it goes back in the input, and the transcript says why.
func TestRetryTheExitEnded(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.typeText("/slow")
	d.key("enter")
	d.until("the turn", func() bool { return d.m.acp().turn != turnIdle })
	d.run(d.m.acp().sendAgain("look it up")) // its flows complete as the turn runs
	if err := syscall.Kill(d.m.acp().conn.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	d.until("the exit modal", func() bool { _, ok := d.m.queue.front().(*exitModal); return ok })
	if got := d.m.acp().input.Value(); got != "look it up" {
		t.Errorf("the input holds %q", got)
	}
	if got := d.m.acp().lastPrompt; got != "/slow" {
		t.Errorf("the retry was sent to the dying agent: the last prompt is %q", got)
	}
	if !strings.Contains(d.screen(), "not sent again: the") {
		t.Errorf("the transcript does not say why:\n%s", d.screen())
	}
}
