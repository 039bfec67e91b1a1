package fullscreen

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// The input arbiter is the one owner of the rule that a question never
// takes keystrokes that were flowing into the prompt. A question that comes
// to the front while the user types (a key within typingWindow) docks under
// the prompt; it takes the keys on a deliberate key (Tab) or once the
// keyboard has been idle for typingWindow. After it takes them, a key
// within grace is still typing: the question docks again and the key goes
// to the prompt, so the grace restarts on every key and nothing typed is
// lost.
const (
	typingWindow = time.Second
	grace        = 400 * time.Millisecond
)

// arbiter decides whether the front modal has the keys.
type arbiter struct {
	now     func() time.Time
	lastKey time.Time // the last key that went to the prompt
	focused bool      // the front modal has the keys
	focusAt time.Time // when it got them
}

// dockTickMsg re-checks a docked question once the keyboard may be idle.
type dockTickMsg struct{}

// typed records a key that went to the prompt.
func (a *arbiter) typed() { a.lastKey = a.now() }

// front is called when a modal comes to the front; deliberate says the
// user asked for it (Ctrl+O, F1…), so it takes the keys at once.
func (a *arbiter) front(deliberate bool) tea.Cmd {
	if deliberate {
		a.focused, a.focusAt = true, time.Time{}
		return nil
	}
	if a.now().Sub(a.lastKey) < typingWindow {
		a.focused = false
		return a.tick()
	}
	a.focused, a.focusAt = true, a.now()
	return nil
}

// empty is called when no modal is left.
func (a *arbiter) empty() { a.focused = false }

func (a *arbiter) tick() tea.Cmd {
	wait := typingWindow - a.now().Sub(a.lastKey) + 10*time.Millisecond
	return tea.Tick(max(wait, 10*time.Millisecond), func(time.Time) tea.Msg { return dockTickMsg{} })
}

// idle handles a dockTickMsg: the docked modal takes the keys if the
// keyboard has been idle long enough, or waits again.
func (a *arbiter) idle(hasFront bool) tea.Cmd {
	if a.focused || !hasFront {
		return nil
	}
	if a.now().Sub(a.lastKey) >= typingWindow {
		a.focused, a.focusAt = true, a.now()
		return nil
	}
	return a.tick()
}

// take says whether the front modal gets key k. A deliberate Tab on a
// docked question focuses it (and is used up: taken and consumed both
// true). A key within grace of focusing is typing: the modal docks again.
func (a *arbiter) take(k tea.KeyPressMsg) (taken, consumed bool, cmd tea.Cmd) {
	if !a.focused {
		if k.String() == "tab" {
			a.focused, a.focusAt = true, time.Time{}
			return true, true, nil
		}
		return false, false, nil
	}
	if !a.focusAt.IsZero() && a.now().Sub(a.focusAt) < grace {
		a.focused = false
		a.typed()
		return false, false, a.tick()
	}
	return true, false, nil
}
