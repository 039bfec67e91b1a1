package acpconn

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// reply is the user's answer to a pending request.
type reply struct {
	optionID string         // permission: the chosen option, "" for cancelled
	action   string         // elicitation: accept, decline or cancel
	content  map[string]any // elicitation: accepted content
}

type pendingKind int

const (
	pendingPermission pendingKind = iota
	pendingElicitation
)

type pending struct {
	kind pendingKind
	ch   chan reply // buffered: an answer never blocks the UI
}

// MaxWaiting is the most permission requests and elicitations that may
// wait for the user at once. More are answered "cancelled" at once, and
// one notice says how many (see noteOverflow).
const MaxWaiting = 32

// register records a request that waits for the user and returns its id;
// ok is false when MaxWaiting already wait.
func (c *Conn) register(kind pendingKind) (id uint64, ch chan reply, ok bool) {
	c.mu.Lock()
	if len(c.pending) >= MaxWaiting {
		c.overflow++
		// The notice waits for the storm to pass: a second without
		// excess (or the user's next answer, or the turn's end).
		if c.ovTimer == nil {
			c.ovTimer = time.AfterFunc(time.Second, c.noteOverflow)
		} else {
			c.ovTimer.Reset(time.Second)
		}
		c.mu.Unlock()
		return 0, nil, false
	}
	id = c.nextID.Add(1)
	ch = make(chan reply, 1)
	c.pending[id] = &pending{kind: kind, ch: ch}
	c.mu.Unlock()
	return id, ch, true
}

// noteOverflow emits one notice for the requests cancelled since the last.
func (c *Conn) noteOverflow() {
	c.mu.Lock()
	n := c.overflow
	c.overflow = 0
	if c.ovTimer != nil {
		c.ovTimer.Stop()
		c.ovTimer = nil
	}
	c.mu.Unlock()
	if n > 0 {
		c.emit(Notice{Text: fmt.Sprintf("cancelled %d requests from the agent at once: %d were already waiting for an answer", n, MaxWaiting), Error: true})
	}
}

// withdraw forgets a request the UI never saw.
func (c *Conn) withdraw(id uint64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// answer delivers the user's reply to request id; it reports false when the
// request is no longer pending (already answered, cancelled or gone).
func (c *Conn) answer(id uint64, r reply) bool {
	c.mu.Lock()
	p := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if p == nil {
		return false
	}
	p.ch <- r
	c.mu.Lock()
	storm := c.overflow > 0
	c.mu.Unlock()
	if storm {
		go c.noteOverflow() // answers never block the UI
	}
	return true
}

// wait blocks until the user answers request id or the request's context
// ends; then the UI is told the request closed, and why.
func (c *Conn) wait(ctx context.Context, id uint64, ch chan reply) (reply, bool) {
	select {
	case r := <-ch:
		return r, true
	case <-ctx.Done():
		c.mu.Lock()
		_, still := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if !still { // answered at the same moment: the answer wins
			return <-ch, true
		}
		if c.lostRemote() { // AgentExited says it; a front end that reconnects keeps the question
			return reply{}, false
		}
		reason := "the agent withdrew the request"
		if c.cancelling.Load() {
			reason = "the turn was cancelled"
		}
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			reason = "the agent went away (" + cause.Error() + ")"
		}
		c.emit(RequestClosed{ID: id, Reason: reason})
		return reply{}, false
	}
}

// RespondPermission answers permission request id with the chosen option;
// an empty optionID answers "cancelled". It never blocks.
func (c *Conn) RespondPermission(id uint64, optionID string) bool {
	return c.answer(id, reply{optionID: optionID})
}

// RespondElicitation answers elicitation request id with "accept" (and its
// content), "decline" or "cancel". It never blocks.
func (c *Conn) RespondElicitation(id uint64, action string, content map[string]any) bool {
	return c.answer(id, reply{action: action, content: content})
}

// cancelPending answers every pending request as cancelled and tells the
// UI, as a turn cancel requires.
func (c *Conn) cancelPending(reason string) {
	c.mu.Lock()
	ids := make([]uint64, 0, len(c.pending))
	for id := range c.pending {
		ids = append(ids, id)
	}
	c.mu.Unlock()
	for _, id := range ids {
		if c.answer(id, reply{action: "cancel"}) {
			c.emit(RequestClosed{ID: id, Reason: reason})
		}
	}
}
