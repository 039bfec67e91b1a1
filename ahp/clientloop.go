package ahp

import (
	"context"
	"encoding/json"
	"time"

	"github.com/coder/websocket"
)

// readLoop reads one connection until it fails, routing responses to their
// calls and actions to the state; a failure of the current connection
// starts a reconnect.
func (c *Client) readLoop(conn *websocket.Conn) {
	for {
		_, data, err := conn.Read(c.ctx)
		if err != nil {
			c.mu.Lock()
			current := c.conn == conn
			if current {
				c.conn = nil
			}
			c.mu.Unlock()
			if current && c.ctx.Err() == nil && c.events != nil {
				c.events.put(Connection{Up: false, Err: err})
				c.wake()
			}
			return
		}
		var m rpcMessage
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		if m.Method == "" && m.ID != nil {
			c.mu.Lock()
			ch := c.calls[string(m.ID)]
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		if m.Method == "action" {
			var e envelope
			if json.Unmarshal(m.Params, &e) == nil {
				c.envelope(e)
			}
		}
	}
}

// envelope applies one action the host sent.
func (c *Client) envelope(e envelope) {
	a, ok, err := c.gen.decode(e.Action)
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
	if !ok || err != nil || e.Channel != c.gen.inputChannel(c.session) {
		c.mu.Unlock()
		return
	}
	c.confirmed.Apply(a)
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
