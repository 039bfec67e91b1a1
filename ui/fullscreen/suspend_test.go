package fullscreen

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// suspends says whether the command asks bubbletea to suspend.
func suspends(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.SuspendMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if suspends(c) {
				return true
			}
		}
	}
	return false
}

// Ctrl+Z suspends from the prompt; a question the agent asked meanwhile
// (it comes in right after fg) is announced, with the bell.
func TestCtrlZSuspendsAndAnnounces(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.typeText("/later 1")
	d.key("enter")
	d.waitText("I will ask you something in 1 s")
	if _, cmd := d.m.Update(keyMsg("ctrl+z")); !suspends(cmd) {
		t.Fatal("ctrl+z at the prompt does not suspend")
	}
	d.feed(tea.ResumeMsg{})
	d.waitText("resumed")
	d.until("the permission", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	d.waitText("asked a permission question while elicit was suspended")
}

// The agent's messages read right after fg can be handled before
// bubbletea's ResumeMsg: a question among them is announced too.
func TestCtrlZQuestionBeforeResumeMsg(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.typeText("/later 1")
	d.key("enter")
	d.waitText("I will ask you something in 1 s")
	if _, cmd := d.m.Update(keyMsg("ctrl+z")); !suspends(cmd) {
		t.Fatal("ctrl+z at the prompt does not suspend")
	}
	d.until("the permission", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	d.waitText("asked a permission question while elicit was suspended")
	d.feed(tea.ResumeMsg{})
	d.waitText("resumed; a question waits for you")
}

// Ctrl+Z suspends from a dialog too, and the dialog is still there after
// fg, named in the transcript; a question long after fg is not announced.
func TestCtrlZInADialog(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.typeText("/edit")
	d.key("enter")
	d.until("the permission", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	d.focus()
	if _, cmd := d.m.Update(keyMsg("ctrl+z")); !suspends(cmd) {
		t.Fatal("ctrl+z in a dialog does not suspend")
	}
	d.feed(tea.ResumeMsg{})
	d.waitText("resumed; a question waits for you")
	if _, ok := d.m.queue.front().(*permModal); !ok {
		t.Fatal("the dialog is gone")
	}
	d.clk.advance(resumeWindow + 1)
	d.keys("1", "enter")
	d.until("the turn's end", func() bool { return d.m.acp().turn == turnIdle })
	d.typeText("/edit")
	d.key("enter")
	d.until("the permission", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	if strings.Contains(d.screen(), "while elicit was suspended") {
		t.Error("a question long after fg was announced as asked while suspended")
	}
}
