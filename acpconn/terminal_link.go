package acpconn

import "time"

// An agent creates a terminal, then names it in a tool call's content; a
// command that prints and exits at once can finish before that tool call
// arrives. Its output events are held until the link comes, so they land
// in the tool call's entry, not in an entry of their own; a terminal no
// tool call names within linkWait of its exit, or that holds more than
// maxHeld bytes, has its output given out unlinked.
const (
	linkWait = 500 * time.Millisecond
	maxHeld  = 64 << 10
)

// termLink is a terminal's output waiting for its tool call.
type termLink struct {
	held      []TerminalOutput
	heldBytes int
	releasing bool // held output is being given out: new output queues behind it
	unlinked  bool // gave up waiting: output goes out without a tool call
}

// termEmit gives out a terminal's output event, named by its tool call, or
// holds it until the terminal is linked.
func (c *Conn) termEmit(t *terminal, o TerminalOutput) {
	t.mu.Lock()
	l := &t.link
	if t.toolCall == "" && !l.unlinked || l.releasing {
		l.held = append(l.held, o)
		l.heldBytes += len(o.Chunk)
		full := l.heldBytes > maxHeld && t.toolCall == ""
		t.mu.Unlock()
		if full {
			c.releaseUnlinked(t)
		}
		return
	}
	o.ToolCallID = t.toolCall
	t.mu.Unlock()
	c.emit(o)
}

// release gives out what t holds, in order, named by its tool call ("" once
// unlinked); output that comes meanwhile queues behind it.
func (c *Conn) release(t *terminal) {
	for {
		t.mu.Lock()
		held, tc := t.link.held, t.toolCall
		t.link.held, t.link.heldBytes = nil, 0
		if len(held) == 0 {
			t.link.releasing = false
			t.mu.Unlock()
			return
		}
		t.link.releasing = true
		t.mu.Unlock()
		for _, o := range held {
			o.ToolCallID = tc
			c.emit(o)
		}
	}
}

// releaseUnlinked stops waiting for t's tool call.
func (c *Conn) releaseUnlinked(t *terminal) {
	t.mu.Lock()
	if t.toolCall != "" || t.link.unlinked {
		t.mu.Unlock()
		return
	}
	t.link.unlinked = true
	t.mu.Unlock()
	c.release(t)
}

// linkTerminals notes which tool call shows a terminal, so its output
// events name the call, and returns the terminals whose held output can
// now go out (after the tool call's own event).
func (c *Conn) linkTerminals(ev Event) []*terminal {
	tc, ok := ev.(ToolCall)
	if !ok {
		return nil
	}
	var linked []*terminal
	for _, id := range tc.Terminals {
		if t := c.terms.get(id); t != nil {
			t.mu.Lock()
			if t.toolCall == "" && !t.link.unlinked {
				linked = append(linked, t) // its held output goes out now
			}
			t.toolCall = tc.ID
			t.mu.Unlock()
		}
	}
	return linked
}
