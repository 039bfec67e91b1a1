package acpconn

import (
	"context"
	"errors"
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

// register records a request that waits for the user and returns its id.
func (c *Conn) register(kind pendingKind) (uint64, chan reply) {
	id := c.nextID.Add(1)
	ch := make(chan reply, 1)
	c.mu.Lock()
	c.pending[id] = &pending{kind: kind, ch: ch}
	c.mu.Unlock()
	return id, ch
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

// rateLimited reports whether one more elicitation now would exceed
// RateLimit requests in RateWindow; it records the request when not.
func (c *Conn) rateLimited(now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	cut := now.Add(-RateWindow)
	kept := c.recent[:0]
	for _, t := range c.recent {
		if t.After(cut) {
			kept = append(kept, t)
		}
	}
	c.recent = kept
	if len(c.recent) >= RateLimit {
		return true
	}
	c.recent = append(c.recent, now)
	return false
}
