package fullscreen

import (
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
)

// toolClock is how long a tool call's command has run: from the agent's
// beats (Claude Code's elapsedTimeSeconds) when it sends them, else by
// elicit's own clock from the moment the call runs (the agent says it is
// in progress, the user allowed it, or its output begins) to its exit or
// its final status.
type toolClock struct {
	since   time.Time     // when it started running; zero while it does not
	beat    time.Duration // the agent's last word on its running time
	beatAt  time.Time     // when that came
	final   time.Duration // its running time once it ended
	done    bool          // it ended: the clock shows final
	asking  bool          // a permission for it is open: not running yet
	granted bool          // the user allowed it and the agent said nothing since
	started bool          // its terminal is up, no permission asked: it runs, though the agent says pending
	shown   int64         // the whole seconds last drawn
}

// elapsed is the running time now.
func (c *toolClock) elapsed(now time.Time) time.Duration {
	switch {
	case c.done:
		return c.final
	case !c.beatAt.IsZero():
		return c.beat + now.Sub(c.beatAt)
	case !c.since.IsZero():
		return now.Sub(c.since)
	}
	return 0
}

// running says whether the clock turns.
func (c *toolClock) running() bool { return !c.done && (!c.since.IsZero() || !c.beatAt.IsZero()) }

// clockStart starts an entry's clock, if it is not already running.
func (t *transcript) clockStart(it *item) {
	c := &it.clock
	if c.done || c.asking || c.running() {
		return
	}
	c.since = t.now()
	t.clocks = append(t.clocks, it)
}

// clockStop stops the clock at the command's end.
func (t *transcript) clockStop(it *item) {
	c := &it.clock
	if c.done {
		return
	}
	if c.running() {
		c.final = c.elapsed(t.now())
	}
	c.done = true
}

// clockUpdate reads what a tool call event says of its running time.
func (t *transcript) clockUpdate(it *item, tc acpconn.ToolCall) {
	c := &it.clock
	if tc.Status != "" {
		c.granted = false // the agent's own status wins
	}
	if tc.Elapsed > 0 && !c.done {
		if !c.running() {
			t.clocks = append(t.clocks, it)
		}
		c.beat, c.beatAt, c.asking = tc.Elapsed, t.now(), false
	}
	switch tc.Status {
	case "in_progress":
		if len(it.tool.Terminals) > 0 {
			t.clockStart(it)
		}
	case "completed", "failed":
		t.clockStop(it)
	}
	// A command whose terminal is up (the _meta extension's terminal_info,
	// or a terminal in its content) runs although the agent still says
	// pending: claude-agent-acp in Auto mode asks no permission and never
	// says in_progress. A permission asked for it stops this (permissionAsked).
	if len(tc.Terminals) > 0 && it.tool.Status == "pending" && !c.asking && !c.done {
		c.started = true
		t.clockStart(it)
	}
}

// permissionAsked notes that a permission for the tool call is open: its
// command has not started.
func (t *transcript) permissionAsked(id string) {
	t.breaks.Interrupt() // it names a tool call: text after it is a new message
	if it := t.tools[id]; it != nil && !it.clock.done {
		it.clock.asking, it.clock.since, it.clock.started = true, time.Time{}, false
		it.dirty = true
	}
}

// permissionAnswered notes the user's answer to a permission for the tool
// call: allowed, it shows as running until the agent says otherwise.
func (t *transcript) permissionAnswered(id string, allowed bool) {
	it := t.tools[id]
	if it == nil {
		return
	}
	it.clock.asking = false
	if allowed && it.tool.Status == "pending" {
		it.clock.granted = true
		if len(it.tool.Terminals) > 0 {
			t.clockStart(it)
		}
	}
	it.dirty = true
}

// stopClocks stops every running clock (the turn was cancelled, or the
// agent is gone).
func (t *transcript) stopClocks() {
	for _, it := range t.clocks {
		t.clockStop(it)
		it.dirty = true
	}
	t.clocks = nil
}

// tick redraws the entries whose running time changed by a second.
func (t *transcript) tick() {
	now := t.now()
	keep := t.clocks[:0]
	for _, it := range t.clocks {
		if !it.clock.running() {
			it.dirty = true
			continue
		}
		keep = append(keep, it)
		if s := int64(it.clock.elapsed(now) / time.Second); s != it.clock.shown {
			it.clock.shown = s
			it.dirty = true
		}
	}
	clear(t.clocks[len(keep):])
	t.clocks = keep
}

// clockText is a running time as the status line shows it: 7s, 1m05s,
// 2h03m.
func clockText(d time.Duration) string {
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s/60%60)
}
