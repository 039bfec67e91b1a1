package forms

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// TestSteadyCursor checks that a focused text field does not blink: the
// blink's first timer fires, and the form answers it with no further
// timer, so an idle program with a form open never wakes up.
func TestSteadyCursor(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{"name":{"type":"string"}}}`)
	m := NewModel(s, Header{Agent: "a", Message: "m"}, Options{})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	blink, ok := findBlink(m.Init(), time.Now().Add(testkit.Hang))
	if !ok {
		t.Fatal("focusing the field started no blink timer (the test no longer sees what it checks)")
	}
	if cmd := m.Update(blink); cmd != nil {
		if _, again := findBlink(cmd, time.Now().Add(testkit.Hang)); again {
			t.Fatal("the form answered a blink with another blink timer")
		}
	}
}

// findBlink runs cmd (and the commands its batches hold, and what the
// form answers to cursor's own start message) until one yields a
// cursor.BlinkMsg.
func findBlink(cmd tea.Cmd, deadline time.Time) (cursor.BlinkMsg, bool) {
	if cmd == nil || time.Now().After(deadline) {
		return cursor.BlinkMsg{}, false
	}
	switch msg := cmd().(type) {
	case cursor.BlinkMsg:
		return msg, true
	case tea.BatchMsg:
		for _, c := range msg {
			if b, ok := findBlink(c, deadline); ok {
				return b, true
			}
		}
	}
	return cursor.BlinkMsg{}, false
}
