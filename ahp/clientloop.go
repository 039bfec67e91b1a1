package ahp

import (
	"context"
	"time"

	"github.com/coder/websocket"
)

// readLoop reads one connection until it fails, routing responses to their
// calls and actions to the state; a failure of the current connection
// starts a reconnect.
func (c *Client) readLoop(conn *websocket.Conn, end *connEnd) {
	for {
		_, data, err := conn.Read(c.ctx)
		if err != nil {
			c.mu.Lock()
			current := c.conn == conn
			if current {
				c.conn = nil
			}
			delete(c.ends, conn)
			c.mu.Unlock()
			end.err = err
			close(end.done)
			if current && c.ctx.Err() == nil && c.events != nil {
				c.events.put(Connection{Up: false, Err: err})
				c.wake()
			}
			return
		}
		var m rpcMessage
		lenient(data, &m)
		if m.Method == "" && m.ID != nil {
			c.mu.Lock()
			w := c.calls[string(m.ID)]
			c.mu.Unlock()
			if w != nil {
				if w.hook != nil {
					w.hook(m)
				}
				w.ch <- m
			}
			continue
		}
		if m.Method == "action" {
			var e envelope
			lenient(m.Params, &e)
			c.envelopeOn(conn, e)
		}
	}
}

// envelopeOn applies one action the host sent on conn: an input action on
// a followed channel changes the state; one on the session's channel may
// make the client follow another chat.
func (c *Client) envelopeOn(conn *websocket.Conn, e envelope) {
	c.mu.Lock()
	gen, session := c.gen, c.session
	c.mu.Unlock()
	if gen == Current && e.Channel == SessionURI(session) && e.RejectionReason == "" {
		c.sessionAction(conn, e.Action)
	}
	a, ok, err := gen.clientDecode(e.Action)
	c.mu.Lock()
	if e.RejectionReason == "" {
		c.lastSeen = max(c.lastSeen, e.ServerSeq)
	}
	mine := e.Origin != nil && e.Origin.ClientID == c.o.ClientID
	var own Action
	if mine {
		for i, p := range c.pend {
			if p.seq == e.Origin.ClientSeq {
				own = p.action
				c.pend = append(c.pend[:i], c.pend[i+1:]...)
				break
			}
		}
	}
	if e.RejectionReason != "" {
		if !mine {
			c.mu.Unlock()
			return // another client's rejection is not ours to show
		}
		if own == nil {
			own = a
		}
		v := c.view()
		c.mu.Unlock()
		c.events.put(Rejected{Action: own, Reason: e.RejectionReason, Inputs: v})
		return
	}
	in := c.inputs[e.Channel]
	if !ok || err != nil || in == nil {
		c.mu.Unlock()
		return
	}
	in.Apply(a)
	v := c.view()
	c.mu.Unlock()
	c.events.put(Changed{Action: a, Origin: e.Origin, Mine: mine, Inputs: v})
}

// wake starts a reconnect.
func (c *Client) wake() {
	select {
	case c.drop <- struct{}{}:
	default:
	}
}

// run reconnects after each drop, backing off from 100 ms to 2 s, until
// Close (or GiveUpAfter).
func (c *Client) run() {
	defer c.wg.Done()
	defer c.events.put(Closed{})
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.drop:
		}
		wait, since := 100*time.Millisecond, time.Now()
		for {
			ctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
			err := c.connect(ctx, true)
			cancel()
			if err == nil {
				break
			}
			if c.ctx.Err() != nil {
				return
			}
			if c.o.GiveUpAfter > 0 && time.Since(since) > c.o.GiveUpAfter {
				c.events.put(Connection{Up: false, Err: err})
				return
			}
			select {
			case <-time.After(wait):
			case <-c.ctx.Done():
				return
			}
			wait = min(2*wait, 2*time.Second)
		}
	}
}
