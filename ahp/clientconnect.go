package ahp

import (
	"context"
	"errors"
	"fmt"

	"github.com/coder/websocket"
)

// connect dials and either initializes (first time, or a host that forgot
// us) or reconnects.
func (c *Client) connect(ctx context.Context, again bool) error {
	conn, err := c.open(ctx)
	if err != nil {
		return err
	}
	if again {
		c.mu.Lock()
		p := reconnectParams{Channel: RootChannel, ClientID: c.o.ClientID, LastSeenServerSeq: c.lastSeen, Subscriptions: c.subscriptions()}
		c.mu.Unlock()
		var res reconnectResult
		err := c.call(ctx, conn, "reconnect", p, &res, nil)
		if err == nil {
			c.reconnected(conn, res)
			return nil
		}
		var re *RPCError
		if !errors.As(err, &re) {
			conn.CloseNow()
			return err
		}
		// The host does not know us (it restarted): start afresh.
	}
	if err := c.initialize(ctx, conn); err != nil {
		conn.CloseNow()
		return err
	}
	return nil
}

// subscriptions are the session's channel and the input channels
// followed. c.mu is held.
func (c *Client) subscriptions() []string {
	subs := []string{SessionURI(c.session)}
	for _, ch := range c.order {
		if ch != subs[0] {
			subs = append(subs, ch)
		}
	}
	return subs
}

func (c *Client) initialize(ctx context.Context, conn *websocket.Conn) error {
	var init initializeResult
	if err := c.call(ctx, conn, "initialize", initializeParams{Channel: RootChannel, ProtocolVersions: c.o.Versions, ClientID: c.o.ClientID,
		ClientInfo: &implInfo{Name: "elicit"}}, &init, nil); err != nil {
		return err
	}
	c.mu.Lock()
	c.version, c.gen = init.ProtocolVersion, GenerationOf(init.ProtocolVersion)
	c.lastSeen = init.ServerSeq // a host that restarted counts afresh
	gen, session := c.gen, c.session
	c.inputs, c.order, c.following = map[string]*Inputs{}, nil, map[string]bool{}
	c.mu.Unlock()
	if session == "" {
		uri := c.o.Session
		if uri == "" {
			list, err := c.list(ctx, conn)
			if err != nil {
				return err
			}
			s, err := pick(list)
			if err != nil {
				return err
			}
			uri = s.Resource
		}
		id, ok := cutPrefix(uri, sessionScheme)
		if !ok {
			return fmt.Errorf("%q is not a session URI (ahp-session:/ID)", clip(uri))
		}
		session = id
		c.mu.Lock()
		c.session = id
		c.mu.Unlock()
	}
	st, err := c.subscribeSession(ctx, conn, gen, session)
	if err != nil {
		return err
	}
	if gen == Current {
		chats, derived := chatsOf(st, session)
		for _, ch := range chats {
			if err := c.subscribeInputs(ctx, conn, gen, ch); err != nil {
				if derived {
					return fmt.Errorf("subscribe %s: %w (the session's snapshot names no chat, so elicit tried the one named after the session)", clip(ch), err)
				}
				return fmt.Errorf("subscribe %s: %w", clip(ch), err)
			}
		}
	}
	c.mu.Lock()
	c.conn = conn
	pend := append([]pending(nil), c.pend...)
	v := c.view()
	c.mu.Unlock()
	c.events.put(Reset{Inputs: v})
	for _, p := range pend {
		c.send(conn, p)
	}
	return nil
}

// subscribeSession subscribes to the session's channel and reads its
// snapshot: the title, the chats, and (legacy generation) the inputs.
func (c *Client) subscribeSession(ctx context.Context, conn *websocket.Conn, gen Generation, session string) (sessionState, error) {
	ch := SessionURI(session)
	var hook func(rpcMessage)
	if gen == Legacy {
		c.mu.Lock()
		c.following[ch] = true
		c.mu.Unlock()
		hook = c.installHook(gen, ch)
	}
	var res subscribeResult
	if err := c.call(ctx, conn, "subscribe", channelParams{Channel: ch}, &res, hook); err != nil {
		return sessionState{}, fmt.Errorf("subscribe %s: %w", clip(ch), err)
	}
	var st sessionState
	if res.Snapshot != nil {
		lenient(res.Snapshot.State, &st)
	}
	c.mu.Lock()
	c.title, c.meta = st.Title, sessionMetaOf(st.Meta)
	c.mu.Unlock()
	return st, nil
}

// subscribeInputs subscribes to an input channel (a chat); its snapshot is
// in place before any action that follows it is applied.
func (c *Client) subscribeInputs(ctx context.Context, conn *websocket.Conn, gen Generation, ch string) error {
	c.mu.Lock()
	c.following[ch] = true
	c.mu.Unlock()
	err := c.call(ctx, conn, "subscribe", channelParams{Channel: ch}, nil, c.installHook(gen, ch))
	if err != nil {
		c.mu.Lock()
		delete(c.following, ch)
		c.mu.Unlock()
	}
	return err
}

// installHook puts a subscribe response's snapshot in place as the state
// of input channel ch (runs in the read loop).
func (c *Client) installHook(gen Generation, ch string) func(rpcMessage) {
	return func(m rpcMessage) {
		if m.Error != nil {
			return
		}
		var res subscribeResult
		lenient(m.Result, &res)
		var in Inputs
		var from int64
		if res.Snapshot != nil {
			in, from = gen.inputsOf(res.Snapshot.State), res.Snapshot.FromSeq
		}
		c.mu.Lock()
		c.install(ch, in, from)
		c.mu.Unlock()
	}
}

// install makes in the state of input channel ch. c.mu is held.
func (c *Client) install(ch string, in Inputs, fromSeq int64) {
	if c.inputs[ch] == nil {
		c.order = append(c.order, ch)
	}
	c.inputs[ch] = &in
	c.following[ch] = true
	c.lastSeen = max(c.lastSeen, fromSeq)
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return "", false
}

// pick is the session to attach to: the one waiting for input, else the
// only one.
func pick(list []SessionSummary) (SessionSummary, error) {
	var waiting []SessionSummary
	for _, s := range list {
		if s.NeedsInput() {
			waiting = append(waiting, s)
		}
	}
	switch {
	case len(waiting) == 1:
		return waiting[0], nil
	case len(waiting) == 0 && len(list) == 1:
		return list[0], nil
	case len(list) == 0:
		return SessionSummary{}, errors.New("the host has no session")
	}
	return SessionSummary{}, &SessionsError{Sessions: list}
}

func (c *Client) list(ctx context.Context, conn *websocket.Conn) ([]SessionSummary, error) {
	var res listSessionsResult
	if err := c.call(ctx, conn, "listSessions", channelParams{Channel: RootChannel}, &res, nil); err != nil {
		return nil, err
	}
	return append(res.Items, res.Sessions...), nil
}

func (c *Client) reconnected(conn *websocket.Conn, res reconnectResult) {
	c.mu.Lock()
	c.conn = conn
	gen, session := c.gen, c.session
	if res.Type == "snapshot" {
		var st *sessionState
		for _, s := range res.Snapshots {
			switch {
			case c.inputs[s.Resource] != nil:
				c.install(s.Resource, gen.inputsOf(s.State), s.FromSeq)
			case s.Resource == SessionURI(session):
				st = &sessionState{}
				lenient(s.State, st)
			}
			c.lastSeen = max(c.lastSeen, s.FromSeq)
		}
		v := c.view()
		c.mu.Unlock()
		c.events.put(Reset{Inputs: v})
		if st != nil && gen == Current {
			chats, _ := chatsOf(*st, session)
			for _, ch := range chats {
				c.followLater(conn, ch)
			}
		}
	} else {
		c.mu.Unlock()
		for _, e := range res.Actions {
			c.envelopeOn(conn, e)
		}
	}
	c.mu.Lock()
	pend := append([]pending(nil), c.pend...)
	c.mu.Unlock()
	for _, p := range pend {
		c.send(conn, p)
	}
	c.events.put(Connection{Up: true})
}
