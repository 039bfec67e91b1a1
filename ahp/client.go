package ahp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// ClientOptions configure a Client.
type ClientOptions struct {
	URL   string // ws:// or wss://
	Token string // sent as Authorization: Bearer
	// Socket, when set, is the path of a Unix socket to reach the host by
	// (the inbox's: see ListenUnix); URL is then only the request's
	// (default ws://localhost/) and no token is needed.
	Socket string
	// ClientID identifies the client across reconnects (default: random).
	ClientID string
	// Versions are offered most preferred first (default Versions).
	Versions []string
	// Session is the session's channel URI; "" picks the one waiting for
	// input (ErrSeveralSessions when more than one could be meant).
	Session    string
	MaxMessage int64 // cap on one message from the host (default 4 MiB)
	// HTTPClient's Transport, when set, is the round tripper under
	// netclient's setup (a test's); nothing else of it is used.
	HTTPClient *http.Client
	// GiveUpAfter stops reconnecting once the host has been unreachable
	// that long (0: keep trying until Close).
	GiveUpAfter time.Duration
}

// pending is an action sent but not yet echoed, with the channel it went
// to (the chat that holds its request).
type pending struct {
	seq     int64
	channel string
	action  Action
}

// Client is an AHP client of one session's input requests. It follows the
// chats the session's snapshot names (those with input needed, and the
// default chat; a chat announced later by session/inputNeededSet too),
// applies its own actions optimistically and reconciles them when the host
// echoes them (write-ahead), and reconnects with `reconnect` after a
// dropped connection, sending again what the host had not acknowledged.
type Client struct {
	o      ClientOptions
	ctx    context.Context
	cancel context.CancelFunc
	events *mailbox[Event]
	wg     sync.WaitGroup

	mu      sync.Mutex
	version string
	gen     Generation
	session string // id
	title   string
	meta    SessionMeta // what a same-user host says of the session
	conn    *websocket.Conn
	// inputs is the host's state of each input channel (a chat; the
	// session itself in the legacy generation), in order: the channels
	// followed, first followed first.
	inputs    map[string]*Inputs
	order     []string
	following map[string]bool // subscribed, or being subscribed
	pend      []pending
	seq       int64
	lastSeen  int64
	nextID    int64
	calls     map[string]*waiting
	ends      map[*websocket.Conn]*connEnd // the connections being read
	drop      chan struct{}
}

// connEnd is closed when a connection's read loop ends, with the reason:
// a call waiting on that connection fails with it at once.
type connEnd struct {
	done chan struct{}
	err  error
}

// waiting is a call waiting for its response; hook, when set, runs on the
// response in the read loop itself, before any later message is read (a
// snapshot is in place before the actions that follow it apply).
type waiting struct {
	ch   chan rpcMessage
	hook func(rpcMessage)
}

// newClient applies the defaults of o.
func newClient(o ClientOptions) *Client {
	if o.ClientID == "" {
		o.ClientID = "elicit-" + randomID()
	}
	if len(o.Versions) == 0 {
		o.Versions = Versions
	}
	if o.MaxMessage <= 0 {
		o.MaxMessage = 4 << 20
	}
	c := &Client{o: o, events: newMailbox[Event](1 << 16), calls: map[string]*waiting{}, ends: map[*websocket.Conn]*connEnd{},
		drop: make(chan struct{}, 1)}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c
}

// Dial connects, negotiates the version, picks the session and subscribes.
func Dial(ctx context.Context, o ClientOptions) (*Client, error) {
	c := newClient(o)
	if err := c.connect(ctx, false); err != nil {
		c.cancel()
		c.wg.Wait()
		return nil, err
	}
	c.wg.Add(1)
	go c.run()
	return c, nil
}

// ListSessions connects, lists the host's sessions and disconnects.
func ListSessions(ctx context.Context, o ClientOptions) ([]SessionSummary, error) {
	c := newClient(o)
	defer c.wg.Wait()
	defer c.cancel()
	conn, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.CloseNow()
	var init initializeResult
	if err := c.call(ctx, conn, "initialize", initializeParams{Channel: RootChannel, ProtocolVersions: c.o.Versions, ClientID: c.o.ClientID}, &init, nil); err != nil {
		return nil, err
	}
	return c.list(ctx, conn)
}

// Session is the session's channel URI.
func (c *Client) Session() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return SessionURI(c.session)
}

// Title is the session's title, as the host named it when the client
// subscribed.
func (c *Client) Title() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.title
}

// SessionMeta is what elicit's host said of the session to a same-user
// connection (agent, directory, process): the zero value from other
// hosts and over the network.
func (c *Client) SessionMeta() SessionMeta {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.meta
}

// Version is the negotiated protocol version.
func (c *Client) Version() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// Chats are the input channels the client follows: the chats whose
// requests it shows (the session's own channel in the legacy generation).
func (c *Client) Chats() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.order...)
}

// ID is the client's id (the origin of its actions).
func (c *Client) ID() string { return c.o.ClientID }

// Next waits for the next event; ok is false after Closed was read or ctx
// is done.
func (c *Client) Next(ctx context.Context) (Event, bool) { return c.events.next(ctx) }

// Inputs is the client's view: the host's state with this client's
// unacknowledged actions applied.
func (c *Client) Inputs() Inputs {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.view()
}

// view is every followed channel's view, one after the other; its Turn is
// the first active turn. c.mu is held.
func (c *Client) view() Inputs {
	var v Inputs
	for _, ch := range c.order {
		in := c.viewOf(ch)
		if v.Turn == "" {
			v.Turn = in.Turn
		}
		v.Entries = append(v.Entries, in.Entries...)
	}
	return v
}

// viewOf is one channel's state with this client's unacknowledged actions
// on it applied. c.mu is held.
func (c *Client) viewOf(ch string) Inputs {
	var v Inputs
	if in := c.inputs[ch]; in != nil {
		v = in.Clone()
	}
	for _, p := range c.pend {
		if p.channel == ch {
			v.Apply(p.action)
		}
	}
	return v
}

// route is the channel an action on request id goes to: the followed
// channel that holds the request (else the first one). c.mu is held.
func (c *Client) route(id string) string {
	for _, ch := range c.order {
		if in := c.viewOf(ch); in.Find(id) != nil {
			return ch
		}
	}
	if len(c.order) > 0 {
		return c.order[0]
	}
	return c.gen.inputChannel(c.session)
}

func requestOf(a Action) string {
	switch a := a.(type) {
	case InputAnswerChanged:
		return a.RequestID
	case InputCompleted:
		return a.RequestID
	}
	return ""
}

// Dispatch sends a client action (InputAnswerChanged or InputCompleted),
// applied at once to the view. Sent while the connection is down, it goes
// out when it is back.
func (c *Client) Dispatch(a Action) error {
	if !ClientDispatchable(a) {
		return errors.New("not a client action")
	}
	c.mu.Lock()
	c.seq++
	p := pending{seq: c.seq, channel: c.route(requestOf(a)), action: a}
	c.pend = append(c.pend, p)
	conn := c.conn
	c.mu.Unlock()
	if conn != nil {
		c.send(conn, p)
	}
	return nil
}

func (c *Client) send(conn *websocket.Conn, p pending) {
	c.mu.Lock()
	gen, session := c.gen, c.session
	c.mu.Unlock()
	_, raw, ok := gen.encode(session, p.action, time.Now())
	if !ok {
		return
	}
	b := notification("dispatchAction", dispatchParams{Channel: p.channel, ClientSeq: p.seq, Action: raw})
	ctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
	defer cancel()
	_ = conn.Write(ctx, websocket.MessageText, b) // a failed write is resent on reconnect
}

// Close ends the connection; Closed is the last event.
func (c *Client) Close() {
	c.cancel()
	c.mu.Lock()
	if c.conn != nil {
		c.conn.Close(websocket.StatusNormalClosure, "")
	}
	c.mu.Unlock()
	c.wg.Wait()
}

// open dials and starts reading the connection.
func (c *Client) open(ctx context.Context) (*websocket.Conn, error) {
	conn, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	end := &connEnd{done: make(chan struct{})}
	c.mu.Lock()
	c.ends[conn] = end
	c.mu.Unlock()
	c.wg.Add(1)
	go func() { defer c.wg.Done(); c.readLoop(conn, end) }()
	return conn, nil
}

// call sends a request and waits for its response, read leniently into
// result (nil: not read); hook, when set, runs on the response in the
// read loop (see waiting).
func (c *Client) call(ctx context.Context, conn *websocket.Conn, method string, params, result any, hook func(rpcMessage)) error {
	c.mu.Lock()
	c.nextID++
	id := strconv.FormatInt(c.nextID, 10)
	ch := make(chan rpcMessage, 1)
	c.calls[id] = &waiting{ch: ch, hook: hook}
	end := c.ends[conn]
	c.mu.Unlock()
	if end == nil {
		return errors.New("the connection to the host ended")
	}
	defer func() { c.mu.Lock(); delete(c.calls, id); c.mu.Unlock() }()
	p, _ := json.Marshal(params)
	b, _ := json.Marshal(rpcMessage{JSONRPC: "2.0", ID: json.RawMessage(id), Method: method, Params: p})
	if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
		return err
	}
	var m rpcMessage
	select {
	case m = <-ch:
	case <-end.done:
		select {
		case m = <-ch: // the response came just before the end
		default:
			return fmt.Errorf("the connection to the host ended: %w", end.err)
		}
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ctx.Done():
		return errors.New("closed")
	}
	if m.Error != nil {
		return m.Error
	}
	if result != nil {
		lenient(m.Result, result)
	}
	return nil
}
