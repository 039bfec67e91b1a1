// Package focus is the input arbiter of every full screen (the ACP
// session and `elicit mcp`): the one owner of the rule that a question
// never takes keystrokes that were flowing somewhere else.
//
//	a := focus.Arbiter{Now: time.Now}
//	cmd := a.Front(false)                  // a question came to the front
//	taken, consumed, cmd := a.Take(key)     // does it get this key?
//	dock, cmd := a.Unused(key, q.keys())    // a letter none of its bindings takes: typing
//	// a key that went elsewhere: a.Typed(); a TickMsg: a.Idle(hasFront)
package focus

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/dialog"
)

// A question that comes to the front while the user types (a key within
// TypingWindow) docks; it takes the keys on a deliberate key (Tab) or once
// the keyboard has been idle for TypingWindow. After it takes them, a key
// within Grace is still typing: the question docks again and the key goes
// where the user was typing, so the grace restarts on every key and
// nothing typed is lost.
const (
	TypingWindow = time.Second
	Grace        = 400 * time.Millisecond
)

// Arbiter decides whether the front question has the keys.
type Arbiter struct {
	Now func() time.Time
	// Window is the typing window: 0 is TypingWindow (the config file's
	// typing_window sets it, for a slower typist).
	Window  time.Duration
	lastKey time.Time // the last key that went elsewhere
	// Focused says the front question has the keys.
	Focused bool
	focusAt time.Time // when it got them
}

// TickMsg re-checks a docked question once the keyboard may be idle:
// hand it to Idle.
type TickMsg struct{}

// Typed records a key that went elsewhere (the prompt, a field).
func (a *Arbiter) Typed() { a.lastKey = a.Now() }

// Front is called when a question comes to the front; deliberate says the
// user asked for it (a panel they opened), so it takes the keys at once.
func (a *Arbiter) Front(deliberate bool) tea.Cmd {
	if deliberate {
		a.Focused, a.focusAt = true, time.Time{}
		return nil
	}
	if a.Now().Sub(a.lastKey) < a.window() {
		a.Focused = false
		return a.tick()
	}
	a.Focused, a.focusAt = true, a.Now()
	return nil
}

// Empty is called when no question is left.
func (a *Arbiter) Empty() { a.Focused = false }

// window is the typing window in force.
func (a *Arbiter) window() time.Duration {
	if a.Window > 0 {
		return a.Window
	}
	return TypingWindow
}

func (a *Arbiter) tick() tea.Cmd {
	wait := a.window() - a.Now().Sub(a.lastKey) + 10*time.Millisecond
	return tea.Tick(max(wait, 10*time.Millisecond), func(time.Time) tea.Msg { return TickMsg{} })
}

// Idle handles a TickMsg: the docked question takes the keys if the
// keyboard has been idle long enough, or waits again.
func (a *Arbiter) Idle(hasFront bool) tea.Cmd {
	if a.Focused || !hasFront {
		return nil
	}
	if a.Now().Sub(a.lastKey) >= a.window() {
		a.Focused, a.focusAt = true, a.Now()
		return nil
	}
	return a.tick()
}

// Unused is called with each key the focused question gets, and keys, its
// bindings (its keys as data: see dialog.Uses). Text that none of them
// takes (a letter at a permission) is typing: the question docks and the
// key goes where the user types (dock says so), so nothing typed at a
// question is lost. A key that is not text stays with the question. This
// is the one place that decides which keys a question uses.
func (a *Arbiter) Unused(k tea.KeyPressMsg, keys []key.Binding) (dock bool, cmd tea.Cmd) {
	if !a.Focused || dialog.Uses(k, keys) || k.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModSuper) != 0 {
		return false, nil
	}
	a.Focused = false
	a.Typed()
	return true, a.tick()
}

// Take says whether the front question gets key k. A deliberate Tab on a
// docked question focuses it (and is used up: taken and consumed both
// true). A key within Grace of focusing is typing: the question docks
// again.
func (a *Arbiter) Take(k tea.KeyPressMsg) (taken, consumed bool, cmd tea.Cmd) {
	if !a.Focused {
		if k.String() == "tab" {
			a.Focused, a.focusAt = true, time.Time{}
			return true, true, nil
		}
		return false, false, nil
	}
	if !a.focusAt.IsZero() && a.Now().Sub(a.focusAt) < Grace {
		a.Focused = false
		a.Typed()
		return false, false, a.tick()
	}
	return true, false, nil
}
