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

type pending struct {
	seq    int64
	action Action
}

// Client is an AHP client of one session's input requests. It applies its
// own actions optimistically and reconciles them when the host echoes them
// (write-ahead), and reconnects with `reconnect` after a dropped connection,
// sending again what the host had not acknowledged.
type Client struct {
	o       ClientOptions
	ctx     context.Context
	cancel  context.CancelFunc
	events  *mailbox[Event]
	wg      sync.WaitGroup
	version string
	gen     Generation
	session string // id
	title   string

	mu        sync.Mutex
	conn      *websocket.Conn
	confirmed Inputs
	pend      []pending
	seq       int64
	lastSeen  int64
	nextID    int64
	calls     map[string]chan rpcMessage
	drop      chan struct{}
}

// Dial connects, negotiates the version, picks the session and subscribes.
func Dial(ctx context.Context, o ClientOptions) (*Client, error) {
	if o.ClientID == "" {
		o.ClientID = "elicit-" + randomID()
	}
	if len(o.Versions) == 0 {
		o.Versions = Versions
	}
	if o.MaxMessage <= 0 {
		o.MaxMessage = 4 << 20
	}
	c := &Client{o: o, events: newMailbox[Event](1 << 16), calls: map[string]chan rpcMessage{}, drop: make(chan struct{}, 1)}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	if err := c.connect(ctx, false); err != nil {
		c.cancel()
		return nil, err
	}
	c.wg.Add(1)
	go c.run()
	return c, nil
}

// ListSessions connects, lists the host's sessions and disconnects.
func ListSessions(ctx context.Context, o ClientOptions) ([]SessionSummary, error) {
	c := &Client{o: o, calls: map[string]chan rpcMessage{}}
	if c.o.ClientID == "" {
		c.o.ClientID = "elicit-" + randomID()
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	defer c.cancel()
	conn, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.CloseNow()
	go c.readLoop(conn)
	var init initializeResult
	if err := c.call(ctx, conn, "initialize", initializeParams{Channel: RootChannel, ProtocolVersions: orVersions(o.Versions), ClientID: c.o.ClientID}, &init); err != nil {
		return nil, err
	}
	return c.list(ctx, conn)
}

func orVersions(v []string) []string {
	if len(v) == 0 {
		return Versions
	}
	return v
}

// Session is the session's channel URI; Version the negotiated version.
func (c *Client) Session() string { return SessionURI(c.session) }

// Title is the session's title, as the host named it when the client
// subscribed.
func (c *Client) Title() string { return c.title }

// Version is the negotiated protocol version.
func (c *Client) Version() string { return c.version }

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

func (c *Client) view() Inputs {
	v := c.confirmed.Clone()
	for _, p := range c.pend {
		v.Apply(p.action)
	}
	return v
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
	p := pending{seq: c.seq, action: a}
	c.pend = append(c.pend, p)
	conn := c.conn
	c.mu.Unlock()
	if conn != nil {
		c.send(conn, p)
	}
	return nil
}

func (c *Client) send(conn *websocket.Conn, p pending) {
	ch, raw, ok := c.gen.encode(c.session, p.action, time.Now())
	if !ok {
		return
	}
	b := notification("dispatchAction", dispatchParams{Channel: ch, ClientSeq: p.seq, Action: raw})
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

// connect dials and either initializes (first time, or a host that forgot
// us) or reconnects.
func (c *Client) connect(ctx context.Context, again bool) error {
	conn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	c.wg.Add(1)
	go func() { defer c.wg.Done(); c.readLoop(conn) }()
	if again {
		c.mu.Lock()
		subs := c.subscriptions()
		p := reconnectParams{Channel: RootChannel, ClientID: c.o.ClientID, LastSeenServerSeq: c.lastSeen, Subscriptions: subs}
		c.mu.Unlock()
		var res reconnectResult
		err := c.call(ctx, conn, "reconnect", p, &res)
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

func (c *Client) subscriptions() []string {
	subs := []string{SessionURI(c.session)}
	if c.gen == Current {
		subs = append(subs, ChatURI(c.session))
	}
	return subs
}

func (c *Client) initialize(ctx context.Context, conn *websocket.Conn) error {
	var init initializeResult
	if err := c.call(ctx, conn, "initialize", initializeParams{Channel: RootChannel, ProtocolVersions: c.o.Versions, ClientID: c.o.ClientID,
		ClientInfo: &implInfo{Name: "elicit"}}, &init); err != nil {
		return err
	}
	c.version, c.gen = init.ProtocolVersion, GenerationOf(init.ProtocolVersion)
	if c.session == "" {
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
		c.session = id
	}
	var snap Inputs
	for _, ch := range c.subscriptions() {
		var res subscribeResult
		if err := c.call(ctx, conn, "subscribe", channelParams{Channel: ch}, &res); err != nil {
			return fmt.Errorf("subscribe %s: %w", ch, err)
		}
		if res.Snapshot != nil && ch == SessionURI(c.session) {
			var st struct {
				Title string `json:"title"`
			}
			_ = json.Unmarshal(res.Snapshot.State, &st)
			c.title = st.Title
		}
		if res.Snapshot != nil && ch == c.gen.inputChannel(c.session) {
			in, err := c.gen.inputsOf(res.Snapshot.State)
			if err != nil {
				return fmt.Errorf("snapshot of %s: %w", ch, err)
			}
			snap = in
		}
	}
	c.mu.Lock()
	c.conn, c.confirmed, c.lastSeen = conn, snap, max(c.lastSeen, init.ServerSeq)
	pend := append([]pending(nil), c.pend...)
	v := c.view()
	c.mu.Unlock()
	c.events.put(Reset{Inputs: v})
	for _, p := range pend {
		c.send(conn, p)
	}
	return nil
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
	if err := c.call(ctx, conn, "listSessions", channelParams{Channel: RootChannel}, &res); err != nil {
		return nil, err
	}
	return append(res.Items, res.Sessions...), nil
}

func (c *Client) reconnected(conn *websocket.Conn, res reconnectResult) {
	c.mu.Lock()
	c.conn = conn
	if res.Type == "snapshot" {
		for _, s := range res.Snapshots {
			if s.Resource == c.gen.inputChannel(c.session) {
				if in, err := c.gen.inputsOf(s.State); err == nil {
					c.confirmed = in
				}
			}
			c.lastSeen = max(c.lastSeen, s.FromSeq)
		}
		v := c.view()
		c.mu.Unlock()
		c.events.put(Reset{Inputs: v})
	} else {
		c.mu.Unlock()
		for _, e := range res.Actions {
			c.envelope(e)
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

// call sends a request and waits for its response.
func (c *Client) call(ctx context.Context, conn *websocket.Conn, method string, params, result any) error {
	c.mu.Lock()
	c.nextID++
	id := strconv.FormatInt(c.nextID, 10)
	ch := make(chan rpcMessage, 1)
	c.calls[id] = ch
	c.mu.Unlock()
	defer func() { c.mu.Lock(); delete(c.calls, id); c.mu.Unlock() }()
	p, _ := json.Marshal(params)
	b, _ := json.Marshal(rpcMessage{JSONRPC: "2.0", ID: json.RawMessage(id), Method: method, Params: p})
	if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return m.Error
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ctx.Done():
		return errors.New("closed")
	}
}
