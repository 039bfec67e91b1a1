// Package foreignhost is an Agent Host Protocol host that is not elicit's,
// for tests: written from the protocol's wire notes alone (it imports no
// elicit package), over a real WebSocket on loopback. Its chat has an id
// of its own (not the session's), and it sends extra and oddly typed
// fields everywhere a client decodes: a status as a string, timestamps as
// numbers, server info, tool calls, markdown parts, _meta. A client must
// read what it needs from it and tolerate the rest.
//
//	h, _ := foreignhost.Start(foreignhost.Options{Token: "t"})
//	defer h.Close()
//	h.Ask("", `{"id":"r1","message":"Name?","questions":[{"id":"name","kind":"text","message":"Name"}]}`)
//	// elicit attach h.URL() --token t
package foreignhost

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// Options configure the host.
type Options struct {
	Token   string // the bearer token a client must send ("" none)
	Session string // the session's id (default "s1")
	Chat    string // the chat's id (default "main-7f3a"), named apart from the session
	// NoChats sends a session snapshot that names no chat (an older host):
	// the chat's id is then the session's.
	NoChats bool
	// Tidy sends every field with its documented type (the extra fields
	// stay): what differs from elicit's host is then only the names.
	Tidy bool
}

// Dispatch is one action a client dispatched.
type Dispatch struct {
	Channel  string
	ClientID string
	Type     string
	Action   json.RawMessage
}

// Host is a running host.
type Host struct {
	o       Options
	srv     *http.Server
	ln      net.Listener
	mu      sync.Mutex
	seq     int64
	chats   []*chat
	conns   map[*conn]bool
	got     []Dispatch
	changed chan struct{}
	closed  bool
}

type chat struct {
	uri   string
	title string
	turn  string
	reqs  []*request
}

type request struct {
	id       string
	body     map[string]any // the request as the agent asked it
	answers  map[string]json.RawMessage
	response string
}

type conn struct {
	ws       *websocket.Conn
	clientID string
	subs     map[string]bool
}

// Start listens on a loopback port and serves until Close.
func Start(o Options) (*Host, error) {
	if o.Session == "" {
		o.Session = "s1"
	}
	if o.Chat == "" {
		o.Chat = "main-7f3a"
	}
	if o.NoChats {
		o.Chat = o.Session
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h := &Host{o: o, ln: ln, conns: map[*conn]bool{}, changed: make(chan struct{})}
	h.chats = []*chat{{uri: "ahp-chat:/" + o.Chat, title: "Main chat", turn: "turn-1"}, {uri: "ahp-chat:/side-2", title: "Side chat"}}
	h.srv = &http.Server{Handler: http.HandlerFunc(h.serve), ReadHeaderTimeout: 10 * time.Second}
	go h.srv.Serve(ln)
	return h, nil
}

// odd is the value of a field: an unexpected one, unless Options.Tidy.
func (h *Host) odd(unexpected, documented any) any {
	if h.o.Tidy {
		return documented
	}
	return unexpected
}

// URL is the host's WebSocket URL.
func (h *Host) URL() string { return "ws://" + h.ln.Addr().String() + "/" }

// SessionURI is the session's channel.
func (h *Host) SessionURI() string { return "ahp-session:/" + h.o.Session }

// ChatURI is the main chat's channel.
func (h *Host) ChatURI() string { return h.chats[0].uri }

// Close ends every connection and stops listening: the host goes away.
func (h *Host) Close() {
	h.srv.Close() // no new connection; those accepted are closed below
	h.mu.Lock()
	conns := h.conns
	h.conns, h.closed = map[*conn]bool{}, true
	h.mu.Unlock()
	for c := range conns {
		c.ws.Close(websocket.StatusGoingAway, "the host is going away")
	}
}

// Changed is closed at the next change (a dispatch received, a client
// connected or gone): a test waits on it (testkit.Until's poke).
func (h *Host) Changed() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

// poke wakes whoever waits on Changed. h.mu is held.
func (h *Host) poke() {
	close(h.changed)
	h.changed = make(chan struct{})
}

// Dispatched lists what clients dispatched, in order.
func (h *Host) Dispatched() []Dispatch {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Dispatch(nil), h.got...)
}

// Clients is how many clients are connected.
func (h *Host) Clients() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

// Answer is the synced answer of one question (nil: none).
func (h *Host) Answer(requestID, questionID string) json.RawMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, r := h.find(requestID); r != nil {
		return r.answers[questionID]
	}
	return nil
}

// Response is how a request was completed ("" open or unknown).
func (h *Host) Response(requestID string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, r := h.find(requestID); r != nil {
		return r.response
	}
	return ""
}

// AddChat adds a chat to the session after clients read its snapshot;
// its URI is returned. Nothing is announced until a request is asked in
// it.
func (h *Host) AddChat(id string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := &chat{uri: "ahp-chat:/" + id, title: "Chat " + id, turn: "turn-" + id}
	h.chats = append(h.chats, c)
	return c.uri
}

// Ask asks a request (raw JSON, as the agent would) in the chat with that
// URI ("" the main chat): chat/inputRequested on the chat and
// session/inputNeededSet on the session, with extra fields.
func (h *Host) Ask(chatURI, requestJSON string) {
	var body map[string]any
	if err := json.Unmarshal([]byte(requestJSON), &body); err != nil {
		panic("foreignhost.Ask: " + err.Error())
	}
	body["_meta"] = map[string]any{"origin": map[string]any{"server": "github", "tool": 7}}
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.chats[0]
	for _, x := range h.chats {
		if x.uri == chatURI {
			c = x
		}
	}
	id, _ := body["id"].(string)
	r := &request{id: id, body: body, answers: map[string]json.RawMessage{}}
	c.reqs = append(c.reqs, r)
	h.broadcast(c.uri, map[string]any{"type": "chat/inputRequested", "request": h.requestJSON(r), "turnId": c.turn, "at": "now"}, nil)
	h.broadcast(h.SessionURI(), map[string]any{"type": "session/inputNeededSet", "request": h.needed(c, r)}, nil)
}

// EndTurn ends the main chat's turn: its open requests are dropped.
func (h *Host) EndTurn() {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.chats[0]
	for _, r := range c.reqs {
		if r.response == "" {
			h.broadcast(h.SessionURI(), map[string]any{"type": "session/inputNeededRemoved", "id": "need-" + r.id}, nil)
		}
	}
	c.reqs = nil
	h.broadcast(c.uri, map[string]any{"type": "chat/turnComplete", "turnId": c.turn, "duration": h.odd("12s", 12)}, nil)
}

func (h *Host) find(id string) (*chat, *request) {
	for _, c := range h.chats {
		for _, r := range c.reqs {
			if r.id == id {
				return c, r
			}
		}
	}
	return nil, nil
}

func (h *Host) requestJSON(r *request) map[string]any {
	out := map[string]any{}
	for k, v := range r.body {
		out[k] = v
	}
	if len(r.answers) > 0 {
		out["answers"] = r.answers
	}
	return out
}

func (h *Host) needed(c *chat, r *request) map[string]any {
	return map[string]any{"id": "need-" + r.id, "chat": c.uri, "kind": "chatInput", "request": h.requestJSON(r), "createdAt": 1731400000123, "priority": h.odd("high", 2)}
}

// broadcast sends an action to every client subscribed to channel. h.mu
// is held.
func (h *Host) broadcast(channel string, action map[string]any, origin map[string]any) {
	h.seq++
	params := map[string]any{"channel": channel, "action": action, "serverSeq": h.odd(strconv.FormatInt(h.seq, 10), h.seq), "timestamp": "2026-11-12T10:04:31Z"}
	if origin != nil {
		params["origin"] = origin
	}
	for c := range h.conns {
		if c.subs[channel] {
			h.write(c, map[string]any{"jsonrpc": "2.0", "method": "action", "params": params})
		}
	}
}

// write sends one message. h.mu is held: the clients are on loopback.
func (h *Host) write(c *conn, msg any) {
	b, _ := json.Marshal(msg)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = c.ws.Write(ctx, websocket.MessageText, b)
}

func (h *Host) serve(w http.ResponseWriter, r *http.Request) {
	if h.o.Token != "" && r.Header.Get("Authorization") != "Bearer "+h.o.Token {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	c := &conn{ws: ws, subs: map[string]bool{}}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		ws.Close(websocket.StatusGoingAway, "the host is going away")
		return
	}
	h.conns[c] = true
	h.poke()
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.conns, c)
		h.poke()
		h.mu.Unlock()
		ws.CloseNow()
	}()
	for {
		_, data, err := ws.Read(context.Background())
		if err != nil {
			return
		}
		h.handle(c, data)
	}
}

var errUnknownChannel = errors.New("unknown channel")
