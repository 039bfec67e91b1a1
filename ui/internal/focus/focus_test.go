package focus

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// clock is a hand-moved clock: the arbiter's rules are about durations,
// so the test sets the time instead of waiting for it.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// TestTypingWindow: a question that comes up within the window of the
// last key docks; once the keyboard has been idle for the window it takes
// the keys; a key within Grace of that docks it again. Window replaces
// the default window (typing_window).
func TestTypingWindow(t *testing.T) {
	for _, window := range []time.Duration{0, 5 * time.Second} {
		c := &clock{t: time.Unix(1000, 0)}
		a := Arbiter{Now: c.now, Window: window}
		want := window
		if want == 0 {
			want = TypingWindow
		}
		a.Typed()
		c.advance(want - 10*time.Millisecond)
		if a.Front(false); a.Focused {
			t.Fatalf("window %v: a question %v after a key took the keys", window, want-10*time.Millisecond)
		}
		if a.Idle(true); a.Focused {
			t.Fatalf("window %v: took the keys before the keyboard was idle for %v", window, want)
		}
		c.advance(10 * time.Millisecond)
		if a.Idle(true); !a.Focused {
			t.Fatalf("window %v: idle for %v, the question did not take the keys", window, want)
		}
		c.advance(Grace - time.Millisecond)
		if taken, _, _ := a.Take(tea.KeyPressMsg{Code: 'y', Text: "y"}); taken || a.Focused {
			t.Fatalf("window %v: a key within the grace answered the question", window)
		}
		c.advance(want)
		a.Idle(true)
		c.advance(Grace)
		if taken, _, _ := a.Take(tea.KeyPressMsg{Code: 'y', Text: "y"}); !taken {
			t.Fatalf("window %v: a key past the grace did not reach the question", window)
		}
	}
}

// TestTabTakesAtOnce: Tab focuses a docked question however recent the
// last key, and is used up.
func TestTabTakesAtOnce(t *testing.T) {
	c := &clock{t: time.Unix(1000, 0)}
	a := Arbiter{Now: c.now, Window: time.Minute}
	a.Typed()
	a.Front(false)
	taken, consumed, _ := a.Take(tea.KeyPressMsg{Code: tea.KeyTab})
	if !taken || !consumed || !a.Focused {
		t.Fatalf("tab: taken %v consumed %v focused %v", taken, consumed, a.Focused)
	}
}
