package main

import (
	"strings"
)

// How the black-box tests answer the questions of a full screen
// (elicit's session and `elicit mcp`) without waiting on the clock. A
// question that comes while the user types docks under the prompt ("⚑ …
// tab to answer") and takes the keys on Tab, at once; one that comes to
// an idle keyboard takes them itself, but ignores keys for a grace period
// (ui/internal/focus.Grace): a key in it docks the question again and
// goes to the prompt. The grace does not show, but what a key it ate did
// does: the question docks. So the tests act on what the screen shows: a
// docked question gets Tab, a question that has the keys gets its answer,
// and after each key they wait until the screen shows it read.

// dockMark starts the line that announces a docked question.
const dockMark = "⚑ "

// reply is how a test answers one question: keys, once the screen shows
// each of focused (its keys line, and what tells it from the others).
type reply struct {
	focused []string
	keys    string
}

// The questions' keys lines.
const (
	permissionKeys = "enter choose"
	formKeys       = "ctrl+x decline · esc cancel"
	urlKeys        = "d decline"
)

// answerUntil answers the questions that come, each as the first of
// replies that fits, until done holds.
func (tm *terminal) answerUntil(what string, done func() bool, replies ...reply) {
	tm.t.Helper()
	shown := func(s string) *reply {
		for i, r := range replies {
			all := true
			for _, f := range r.focused {
				all = all && strings.Contains(s, f)
			}
			if all {
				return &replies[i]
			}
		}
		return nil
	}
	docked := func(s string) bool { return shown(s) == nil && strings.Contains(s, dockMark) }
	for !done() {
		tm.waitUntil(what+" or a question", func() bool { s := tm.screen(); return done() || shown(s) != nil || docked(s) })
		s := tm.screen()
		switch r := shown(s); {
		case done():
		case r != nil:
			tm.send(r.keys)
			// Answered (the next question shows, or none), or docked
			// again by the grace: either way it has not the keys.
			tm.waitUntil("the question ("+strings.Join(r.focused, ", ")+") read "+strings.TrimSpace(r.keys), func() bool {
				return done() || shown(tm.screen()) != r
			})
		default:
			tm.send("\t")
			tm.waitUntil("a question taking the keys", func() bool { return done() || !docked(tm.screen()) })
		}
	}
}

// quit ends a full screen with Ctrl+C (pressQuit) and returns what
// elicit wrote.
func (tm *terminal) quit() []byte {
	tm.t.Helper()
	tm.pressQuit()
	return tm.finish()
}

// pressQuit presses Ctrl+C, again as the screen says: a first press
// cancels a running turn or call, or asks for a second within a short
// while, which quits (or empties a prompt that holds text, as a
// question's grace may have left there).
func (tm *terminal) pressQuit() {
	tm.t.Helper()
	for {
		m := tm.mark()
		tm.send("\x03")
		var said string
		tm.waitUntil("a word on Ctrl+C", func() bool {
			s := tm.since(m)
			for _, w := range []string{"ctrl+c again quits", "ctrl+c again clears the prompt", "cancelling the turn", "notifications/cancelled"} {
				if strings.Contains(s, w) {
					said = w
					return true
				}
			}
			return false
		})
		if said == "ctrl+c again quits" {
			// The second press quits, unless the window passed first on a
			// busy machine: then the hint left the status bar, and this
			// press arms again as a first one; press once more.
			for {
				m = tm.mark()
				tm.send("\x03")
				again := false
				tm.waitUntil("elicit's end, or a first press again", func() bool {
					select {
					case <-tm.done:
						return true
					default:
					}
					again = strings.Contains(tm.since(m), "ctrl+c again quits")
					return again
				})
				if !again {
					return
				}
			}
		}
		if said == "ctrl+c again clears the prompt" {
			m = tm.mark()
			tm.send("\x03")
			tm.waitUntil("the prompt cleared", func() bool { return strings.Contains(tm.since(m), "prompt cleared") })
		}
		if said == "cancelling the turn" {
			// Cancelled, or ended on its own before the cancel reached
			// the agent (the agent had answered as Ctrl+C was pressed).
			tm.waitUntil("the turn cancelled", func() bool {
				s := tm.since(m)
				return strings.Contains(s, "turn cancelled") || strings.Contains(s, "before the cancel reached")
			})
		}
	}
}

// connected is what the session's full screen shows once the agent is
// connected (a prompt typed before is kept, not sent).
const connected = "· connected to "

// keysScreen is the head of the session's keys screen (F1).
const keysScreen = "Keys · elicit"

// linePrompt is the line session's prompt, written again once a turn
// ended.
const linePrompt = "\n> "
