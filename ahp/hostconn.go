package ahp

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"golang.org/x/time/rate"
)

// hostConn is the host's side of one client connection, whatever carries
// it: send queues a whole message without blocking (false: the client is
// too slow and is dropped), close ends the connection.
type hostConn struct {
	h        *Host
	send     func([]byte) bool
	closer   func()
	clientID string
	gen      Generation
	ready    bool // initialized or reconnected
	subs     map[string]bool
	closed   bool
	drafts   *rate.Limiter // this connection's drafts (admit)
	// sameUser: the transport checked that the peer is the host's own
	// user (see private.go).
	sameUser bool
}

// ErrTooManyClients is returned by Attach when the host is full.
var ErrTooManyClients = errors.New("too many clients")

// Attach connects a client transport to the host: send queues one whole
// JSON-RPC message for the client without blocking (returning false drops
// the client), close ends the transport. The returned handle takes each
// message the client sent, and Detach when the transport ends. Tests and
// other transports use it; Server uses it for WebSocket.
func (h *Host) Attach(send func([]byte) bool, close func()) (*Peer, error) {
	return h.attach(send, close, false)
}

// AttachSameUser is Attach for a transport that checked the peer is the
// host's own user (the inbox's Unix socket): the client also sees, and
// may answer, the requests asked with RequestPrivate, and the session's
// Meta.
func (h *Host) AttachSameUser(send func([]byte) bool, close func()) (*Peer, error) {
	return h.attach(send, close, true)
}

func (h *Host) attach(send func([]byte) bool, close func(), sameUser bool) (*Peer, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.conns) >= h.o.MaxClients {
		return nil, ErrTooManyClients
	}
	c := &hostConn{h: h, send: send, closer: close, subs: map[string]bool{}, sameUser: sameUser}
	h.conns[c] = true
	return &Peer{c: c}, nil
}

// Peer is one attached client's handle.
type Peer struct{ c *hostConn }

// Handle takes one message the client sent.
func (p *Peer) Handle(data []byte) { p.c.handle(data) }

// Detach forgets the client.
func (p *Peer) Detach() {
	h := p.c.h
	h.mu.Lock()
	delete(h.conns, p.c)
	h.release(p.c)
	p.c.closed = true
	if p.c.subs[SessionURI(h.o.SessionID)] {
		h.presence(p.c.clientID, -1, p.c.sameUser)
	}
	h.mu.Unlock()
}

// drop forgets the connection and ends it. h.mu is held.
func (c *hostConn) drop() {
	c.closed = true
	delete(c.h.conns, c)
	c.h.release(c)
	c.close()
}

func (c *hostConn) close() {
	if c.closer != nil {
		go c.closer() // never under the host's lock: closing may wait
	}
}

// deliver sends a logged action if the client subscribes to its channel.
// h.mu is held.
func (c *hostConn) deliver(l *logged) {
	if !c.ready || c.closed {
		return
	}
	w := c.h.encoded(l, c.gen, c.sameUser)
	if !w.ok || !c.subs[w.channel] || !c.sees(l) {
		return
	}
	c.push(w.msg)
}

// push sends msg, dropping a client that does not keep up. h.mu is held.
func (c *hostConn) push(msg []byte) {
	if c.closed {
		return
	}
	if !c.send(msg) {
		c.drop()
	}
}

func (c *hostConn) handle(data []byte) {
	var m rpcMessage
	if err := json.Unmarshal(data, &m); err != nil || m.JSONRPC != "2.0" || m.Method == "" {
		c.h.mu.Lock()
		c.push(errorResponse(m.ID, CodeInvalidRequest, "not a JSON-RPC 2.0 request or notification"))
		c.h.mu.Unlock()
		return
	}
	c.h.mu.Lock()
	defer c.h.mu.Unlock()
	if c.closed {
		return
	}
	result, rerr := c.call(m)
	if m.ID == nil {
		return // a notification: no answer, even to an error
	}
	if rerr != nil {
		c.push(response(m.ID, nil, rerr))
		return
	}
	c.push(response(m.ID, result, nil))
}

// call runs one request or notification. h.mu is held.
func (c *hostConn) call(m rpcMessage) (any, *RPCError) {
	h := c.h
	switch m.Method {
	case "ping":
		return struct{}{}, nil
	case "initialize":
		var p initializeParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, invalid("initialize needs clientId and protocolVersions")
		}
		v := ""
		for _, want := range p.ProtocolVersions {
			if slices.Contains(Versions, want) {
				v = want
				break
			}
		}
		if v == "" {
			return nil, &RPCError{Code: CodeUnsupportedVersion, Message: "no protocol version in common",
				Data: map[string]any{"supportedVersions": Versions}}
		}
		if rerr := h.admit(c, p.ClientID, false); rerr != nil {
			return nil, rerr
		}
		c.gen, c.ready = GenerationOf(v), true
		h.remember(c.clientID, c.gen)
		res := initializeResult{ProtocolVersion: v, ServerSeq: h.seq, ServerInfo: &implInfo{Name: "elicit", Version: h.o.Version}, Snapshots: []snapshot{}}
		for _, ch := range p.InitialSubscriptions {
			if s, ok := c.subscribe(ch); ok {
				res.Snapshots = append(res.Snapshots, s)
			}
		}
		return res, nil
	case "reconnect":
		var p reconnectParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, invalid("reconnect needs clientId")
		}
		if rerr := h.claimable(p.ClientID); rerr != nil {
			return nil, rerr
		}
		g, ok := h.known[p.ClientID]
		if !ok {
			return nil, &RPCError{Code: CodeNotFound, Message: "unknown client: initialize again"}
		}
		if rerr := h.admit(c, p.ClientID, true); rerr != nil {
			return nil, rerr
		}
		c.gen, c.ready = g, true
		return c.reconnect(p), nil
	}
	if !c.ready {
		return nil, &RPCError{Code: CodeInvalidRequest, Message: "initialize first"}
	}
	switch m.Method {
	case "subscribe":
		var p channelParams
		_ = json.Unmarshal(m.Params, &p)
		s, ok := c.subscribe(p.Channel)
		if !ok {
			return nil, &RPCError{Code: CodeNotFound, Message: fmt.Sprintf("no channel %q", clip(p.Channel))}
		}
		return subscribeResult{Snapshot: &s}, nil
	case "unsubscribe":
		var p channelParams
		_ = json.Unmarshal(m.Params, &p)
		if c.subs[p.Channel] && p.Channel == SessionURI(h.o.SessionID) {
			h.presence(c.clientID, -1, c.sameUser)
		}
		delete(c.subs, p.Channel)
		return nil, nil
	case "listSessions":
		return listSessionsResult{Items: []SessionSummary{{Resource: SessionURI(h.o.SessionID), Provider: h.o.Provider,
			Title: h.o.Title, Status: h.status(c.inputs()), CreatedAt: isoTime(h.born), ModifiedAt: isoTime(h.o.Now())}}}, nil
	case "dispatchAction":
		c.dispatch(m.Params)
		return nil, nil
	}
	return nil, &RPCError{Code: CodeMethodNotFound, Message: fmt.Sprintf("elicit's host does not support %q", clip(m.Method))}
}

// subscribe adds a channel and returns its snapshot. h.mu is held.
func (c *hostConn) subscribe(ch string) (snapshot, bool) {
	h := c.h
	s := snapshot{Resource: ch, FromSeq: h.seq}
	switch {
	case ch == RootChannel:
		s.State = json.RawMessage(`{"agents":[]}`)
	case ch == SessionURI(h.o.SessionID):
		s.State = c.gen.sessionSnapshot(h.o.SessionID, c.inputs(), c.info())
		if !c.subs[ch] {
			h.presence(c.clientID, +1, c.sameUser)
		}
	case ch == ChatURI(h.o.SessionID) && c.gen == Current:
		s.State = chatSnapshot(h.o.SessionID, c.inputs(), c.info())
	default:
		return s, false
	}
	c.subs[ch] = true
	return s, true
}

// reconnect replays what the client missed, or gives fresh snapshots when
// the replay buffer no longer reaches back. h.mu is held.
func (c *hostConn) reconnect(p reconnectParams) reconnectResult {
	h := c.h
	if c.subs[SessionURI(h.o.SessionID)] {
		h.presence(c.clientID, -1, c.sameUser) // subscribed again below
	}
	c.subs = map[string]bool{}
	var missing []string
	var snaps []snapshot
	for _, ch := range p.Subscriptions {
		s, ok := c.subscribe(ch)
		if !ok {
			missing = append(missing, ch)
			continue
		}
		snaps = append(snaps, s)
	}
	oldest := h.seq + 1
	if len(h.log) > 0 {
		oldest = h.log[0].seq
	}
	if p.LastSeenServerSeq+1 < oldest || p.LastSeenServerSeq > h.seq {
		return reconnectResult{Type: "snapshot", Snapshots: snaps}
	}
	res := reconnectResult{Type: "replay", Actions: []envelope{}, Missing: missing}
	for _, l := range h.log {
		if l.seq <= p.LastSeenServerSeq {
			continue
		}
		if w := h.encoded(l, c.gen, c.sameUser); w.ok && c.subs[w.channel] && c.sees(l) {
			var m rpcMessage
			_ = json.Unmarshal(w.msg, &m)
			var e envelope
			_ = json.Unmarshal(m.Params, &e)
			res.Actions = append(res.Actions, e)
		}
	}
	return res
}

// dispatch handles a client's dispatchAction: applied and echoed to all,
// or echoed to the sender alone with the reason. h.mu is held.
func (c *hostConn) dispatch(params json.RawMessage) {
	h := c.h
	var p dispatchParams
	if err := json.Unmarshal(params, &p); err != nil {
		return // a notification gets no error; nothing to echo either
	}
	origin := &Origin{ClientID: c.clientID, ClientSeq: p.ClientSeq}
	reject := func(reason string) {
		c.push(notification("action", envelope{Channel: p.Channel, Action: p.Action, ServerSeq: h.seq, Origin: origin, RejectionReason: reason}))
	}
	a, ok, err := c.gen.decode(p.Action)
	switch {
	case err != nil:
		reject("invalid action: " + err.Error())
		return
	case !ok:
		reject("elicit's host takes only input actions")
		return
	case p.Channel != c.gen.inputChannel(h.o.SessionID):
		reject(fmt.Sprintf("input actions go to %s", c.gen.inputChannel(h.o.SessionID)))
		return
	}
	if c.hidden(a) {
		reject(fmt.Sprintf("no open request %q", clip(requestIDOf(a))))
		return
	}
	if _, draft := a.(InputAnswerChanged); draft && !c.drafts.AllowN(h.o.Now(), 1) {
		reject(fmt.Sprintf("too many drafts: at most %g a second after %d at once; send the latest after a pause", h.o.DraftRate, h.o.DraftBurst))
		return
	}
	if err := h.dispatch(origin, a, c.sameUser); err != nil {
		reject(err.Error())
	}
}

// isoTime is t as the protocol's timestamps have it (ISO 8601, UTC, ms).
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func invalid(msg string) *RPCError { return &RPCError{Code: CodeInvalidParams, Message: msg} }

func notification(method string, params any) []byte {
	p, _ := json.Marshal(params)
	b, _ := json.Marshal(rpcMessage{JSONRPC: "2.0", Method: method, Params: p})
	return b
}

func response(id json.RawMessage, result any, e *RPCError) []byte {
	m := rpcMessage{JSONRPC: "2.0", ID: id, Error: e}
	if e == nil {
		r, _ := json.Marshal(result)
		if result == nil {
			r = json.RawMessage("null")
		}
		m.Result = r
	}
	b, _ := json.Marshal(m)
	return b
}

func errorResponse(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	return response(id, nil, &RPCError{Code: code, Message: msg})
}
