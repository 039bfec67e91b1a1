package acpconn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/question"
)

// pending is a request waiting for the user's answer: the Outcome comes on
// ch, buffered, so an answer never blocks the UI.
type pending struct{ ch chan question.Outcome }

// MaxWaiting is the most permission requests and elicitations that may
// wait for the user at once. More are answered "cancelled" at once, and
// one notice says how many (see noteOverflow).
const MaxWaiting = 32

// register records a request that waits for the user and returns its id;
// ok is false when MaxWaiting already wait.
func (c *Conn) register() (id uint64, ch chan question.Outcome, ok bool) {
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
	ch = make(chan question.Outcome, 1)
	c.pending[id] = &pending{ch: ch}
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

// answer delivers the user's answer to request id; it reports false when
// the request is no longer pending (already answered, cancelled or gone).
func (c *Conn) answer(id uint64, r question.Outcome) bool {
	c.mu.Lock()
	p := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if p == nil {
		return false
	}
	c.deliver(p, r)
	return true
}

// deliver hands r to a request already taken out of c.pending.
func (c *Conn) deliver(p *pending, r question.Outcome) {
	p.ch <- r
	c.mu.Lock()
	storm := c.overflow > 0
	c.mu.Unlock()
	if storm {
		go c.noteOverflow() // answers never block the UI
	}
}

// wait blocks until the user answers request id or the request's context
// ends; then the UI is told the request closed, and why.
func (c *Conn) wait(ctx context.Context, id uint64, ch chan question.Outcome) (question.Outcome, bool) {
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
			return question.Outcome{}, false
		}
		reason := "the agent withdrew the request"
		if c.cancelling.Load() {
			reason = "the turn was cancelled"
		}
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			reason = "the agent went away (" + cause.Error() + ")"
		}
		c.emit(question.Withdrawn{ID: id, Reason: reason})
		return question.Outcome{}, false
	}
}

// Answer answers q, a question this connection asked (question.Asked),
// with out: the session core's Source. A form or URL is answered with
// out's action (and a form's accepted content, which the reply checks
// against the schema), a permission with out.Option when out accepts, and
// "cancelled" otherwise. It reports false when q no longer waits (already
// answered, withdrawn, or the agent is gone, or q asked nothing: ID 0). It
// never blocks.
func (c *Conn) Answer(q *question.Question, out question.Outcome) bool {
	if q.ID == 0 {
		return false
	}
	return c.answer(q.ID, out)
}

// cancelPending answers every pending request as cancelled and tells the
// UI, as a turn cancel requires. The UI hears of the withdrawal before the
// agent hears the answer: the turn's end, which the answer may bring at
// once, never comes before it.
func (c *Conn) cancelPending(reason string) {
	c.mu.Lock()
	ids := make([]uint64, 0, len(c.pending))
	claimed := make([]*pending, 0, len(c.pending))
	for id, p := range c.pending {
		ids, claimed = append(ids, id), append(claimed, p)
		delete(c.pending, id)
	}
	c.mu.Unlock()
	for i, id := range ids {
		c.emit(question.Withdrawn{ID: id, Reason: reason})
		c.deliver(claimed[i], question.Outcome{Action: question.Cancel})
	}
}
