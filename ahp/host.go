package ahp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/question"
)

// HostOptions configure a Host. Every cap bounds what remote peers can make
// the host hold; zero means the default.
type HostOptions struct {
	SessionID string // default: random
	Title     string // the session's title
	Provider  string // default "elicit"
	Version   string // elicit's version, in serverInfo
	Limits    Limits // per answer
	// MaxClients is how many clients may be connected at once (default 64).
	MaxClients int
	// MaxRequests is how many requests may be open at once (default 32),
	// MaxQuestions how many questions one may have (default 64).
	MaxRequests, MaxQuestions int
	// Replay is how many past actions are kept for reconnects (default
	// 1024), ReplayBytes how many bytes of them on the wire (default 8
	// MiB); a client further behind gets a snapshot.
	Replay, ReplayBytes int
	// DraftRate is how many drafts a second one connection may dispatch
	// after a burst of DraftBurst (defaults 20 and 64: a whole form's
	// worth at once); the rest are refused with the reason.
	DraftRate  float64
	DraftBurst int
	Now        func() time.Time
	// Meta is what same-user connections (the inbox) are told of the
	// session, under the session state's _meta.elicit; network clients
	// are not told.
	Meta *SessionMeta
	// Check, when set, also judges a valid-looking accept with the final
	// answers merged (the owner's own rules, such as a schema's pattern):
	// an error refuses the completion with its text as the reason. It runs
	// under the host's lock and must not call the host.
	Check func(final Request) error
}

func (o HostOptions) withDefaults() HostOptions {
	if o.SessionID == "" {
		o.SessionID = randomID()
	}
	if o.Provider == "" {
		o.Provider = "elicit"
	}
	if o.MaxClients <= 0 {
		o.MaxClients = 64
	}
	if o.MaxRequests <= 0 {
		o.MaxRequests = 32
	}
	if o.MaxQuestions <= 0 {
		o.MaxQuestions = 64
	}
	if o.Replay <= 0 {
		o.Replay = 1024
	}
	if o.ReplayBytes <= 0 {
		o.ReplayBytes = 8 << 20
	}
	if o.DraftRate <= 0 {
		o.DraftRate = 20
	}
	if o.DraftBurst <= 0 {
		o.DraftBurst = 64
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	o.Limits = o.Limits.orDefault()
	return o
}

func randomID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Completion is a request the first valid inputCompleted answered: the
// request with its final answers (the completion's merged over the synced
// ones), the response, and who sent it.
type Completion struct {
	Request  Request
	Response question.Action
	By       Origin
	// SameUser: it came over a same-user connection (the inbox's Unix
	// socket), not over the network.
	SameUser bool
}

// Update is one applied change, for a watcher in the host's own process
// (the terminal that runs `elicit serve`), or, with Action nil, a client
// that attached to the session or left it (Presence); Host.Inputs has the
// state.
type Update struct {
	Action   Action
	Origin   *Origin // nil for the host's own actions
	Presence *Presence
}

// logged is one applied action with its sequence number.
type logged struct {
	seq    int64
	action Action
	origin *Origin
	wire   [2][2]*wired // per generation, and for network [0] or same-user [1] connections, encoded once
	size   int          // bytes on the wire (the current generation's)
	// private: the action is about a request only same-user connections
	// see (RequestPrivate).
	private bool
}

type wired struct {
	channel string
	msg     []byte
	ok      bool
}

// Host holds one session's input requests and serves them to clients: it
// validates what they dispatch, applies it with the reducer, echoes it to
// every subscriber with the sender's origin (or to the sender alone with a
// rejectionReason), and reports the first valid completion of each request.
// It is safe for concurrent use.
type Host struct {
	mu     sync.Mutex
	o      HostOptions
	in     Inputs
	seq    int64
	log    []*logged
	logLen int // the log's bytes on the wire
	conns  map[*hostConn]bool
	names  map[string]*hostConn  // the live connections' client ids (admit)
	own    map[string]bool       // the ids of the host's own clients (Join)
	known  map[string]Generation // client ids seen, for reconnect
	order  []string
	born   time.Time
	done   *mailbox[Completion]
	watch  map[*mailbox[Update]]bool
	turnNo int
	// won keeps the last maxWon completions by request id, for Winner;
	// wonOrder is their order, oldest first.
	won      map[string]Completion
	wonOrder []string
	// present counts each client's connections subscribed to the session.
	present map[string]int
	// private holds the ids of the requests only same-user connections
	// see (RequestPrivate: permissions).
	private map[string]bool
}

// maxWon bounds the completions Winner can still tell.
const maxWon = 256

// NewHost returns a host with no request open and no turn active.
func NewHost(o HostOptions) *Host {
	o = o.withDefaults()
	return &Host{o: o, conns: map[*hostConn]bool{}, names: map[string]*hostConn{}, own: map[string]bool{}, known: map[string]Generation{}, born: o.Now(),
		done: newMailbox[Completion](4096), watch: map[*mailbox[Update]]bool{}, won: map[string]Completion{}, present: map[string]int{},
		private: map[string]bool{}}
}

// SessionID is the session's id; SessionURI(h.SessionID()) its channel.
func (h *Host) SessionID() string { return h.o.SessionID }

// Inputs returns a copy of the current state.
func (h *Host) Inputs() Inputs {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.in.Clone()
}

// NextCompletion waits for the next completion a client (a connection, or
// a Local one) made; ok is false when ctx is done or the host closed.
func (h *Host) NextCompletion(ctx context.Context) (Completion, bool) { return h.done.next(ctx) }

// Watch returns a function that waits for the next applied change, and a
// function to stop watching.
func (h *Host) Watch() (next func(context.Context) (Update, bool), stop func()) {
	mb := newMailbox[Update](4096)
	h.mu.Lock()
	h.watch[mb] = true
	h.mu.Unlock()
	return mb.next, func() {
		h.mu.Lock()
		delete(h.watch, mb)
		h.mu.Unlock()
		mb.close()
	}
}

// Close ends every connection and the completions.
func (h *Host) Close() {
	h.mu.Lock()
	conns := h.conns
	h.conns = map[*hostConn]bool{}
	h.mu.Unlock()
	for c := range conns {
		c.close()
	}
	h.done.close()
}

// StartTurn starts a turn: clients see the requests asked in it.
func (h *Host) StartTurn() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.turnNo++
	id := fmt.Sprintf("turn-%d", h.turnNo)
	h.apply(TurnStarted{TurnID: id}, nil)
	return id
}

// EndTurn ends the active turn (state: TurnComplete, TurnCancelled or
// TurnError): its open requests are dropped and every client told.
func (h *Host) EndTurn(state string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.in.Turn == "" {
		return
	}
	for _, r := range h.in.OpenRequests() {
		h.apply(InputNeededRemoved{ID: r.ID}, nil)
	}
	h.apply(TurnEnded{TurnID: h.in.Turn, State: state}, nil)
}

// Request asks r of every client (or replaces the open request with its
// id). A turn is started if none is active. It fails past the caps.
func (h *Host) Request(r Request) error { return h.request(r, false) }

// RequestPrivate is Request for same-user connections alone (the inbox's
// Unix socket): network clients neither see the request nor can answer
// it. Permissions travel so.
func (h *Host) RequestPrivate(r Request) error { return h.request(r, true) }

func (h *Host) request(r Request, private bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.ID == "" {
		return errors.New("a request needs an id")
	}
	if len(r.Questions) > h.o.MaxQuestions {
		return fmt.Errorf("more than %d questions", h.o.MaxQuestions)
	}
	if h.in.Open(r.ID) == nil && len(h.in.OpenRequests()) >= h.o.MaxRequests {
		return fmt.Errorf("more than %d open requests", h.o.MaxRequests)
	}
	if h.in.Turn == "" {
		h.turnNo++
		h.apply(TurnStarted{TurnID: fmt.Sprintf("turn-%d", h.turnNo)}, nil)
	}
	delete(h.won, r.ID) // a new request under an old id has no winner yet
	if private {
		h.private[r.ID] = true
	}
	h.apply(InputRequested{Request: r}, nil)
	if e := h.in.Open(r.ID); e != nil {
		h.apply(InputNeededSet{Chat: ChatURI(h.o.SessionID), Request: e.Request.Clone()}, nil)
	}
	return nil
}

// Withdraw closes an open request the agent no longer waits for (it
// withdrew the question, or went away): clients see it completed with
// cancel by the host itself, and no Completion is reported.
func (h *Host) Withdraw(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.in.Open(id) == nil {
		return
	}
	h.apply(InputCompleted{RequestID: id, Response: question.Cancel}, nil)
	h.apply(InputNeededRemoved{ID: id}, nil)
}

// dispatch validates and applies a client's action. h.mu is held.
func (h *Host) dispatch(origin *Origin, a Action, sameUser bool) error {
	if !ClientDispatchable(a) {
		return errors.New("clients may only dispatch inputAnswerChanged and inputCompleted")
	}
	switch a := a.(type) {
	case InputAnswerChanged:
		e := h.in.Open(a.RequestID)
		if e == nil {
			return h.notOpen(a.RequestID)
		}
		q := e.Request.Question(a.QuestionID)
		if q == nil {
			return fmt.Errorf("request %q has no question %q", clip(a.RequestID), clip(a.QuestionID))
		}
		if a.Answer != nil {
			if err := CheckAnswer(q, a.Answer, h.o.Limits); err != nil {
				return err
			}
		}
		h.apply(a, origin)
	case InputCompleted:
		e := h.in.Open(a.RequestID)
		if e == nil {
			return h.notOpen(a.RequestID)
		}
		if err := CheckCompletion(&e.Request, a, h.o.Limits); err != nil {
			return err
		}
		if a.Response == question.Accept && h.o.Check != nil {
			final := e.Request.Clone()
			if len(a.Answers) > 0 && final.Answers == nil {
				final.Answers = map[string]Answer{}
			}
			for k, v := range a.Answers {
				final.Answers[k] = v.Clone()
			}
			if err := h.o.Check(final); err != nil {
				return err
			}
		}
		h.apply(a, origin)
		final := h.in.Find(a.RequestID).Request.Clone()
		h.apply(InputNeededRemoved{ID: a.RequestID}, nil)
		c := Completion{Request: final, Response: a.Response, By: *origin, SameUser: sameUser}
		h.rememberWin(a.RequestID, c)
		h.done.put(c)
	}
	return nil
}

func (h *Host) notOpen(id string) error {
	if e := h.in.Find(id); e != nil {
		return fmt.Errorf("request %q was already completed (%s)", clip(id), e.Response)
	}
	return fmt.Errorf("no open request %q", clip(id))
}

// apply reduces a into the state, logs it and sends it to every
// subscriber and watcher. h.mu is held.
func (h *Host) apply(a Action, origin *Origin) {
	h.in.Apply(a)
	h.seq++
	l := &logged{seq: h.seq, action: a, origin: origin, private: h.private[requestIDOf(a)]}
	switch a.(type) {
	case TurnStarted, TurnEnded: // the turn's requests are gone: so is their privacy
		clear(h.private)
	}
	if w := h.encoded(l, Current, false); w.ok {
		l.size = len(w.msg)
	}
	h.log = append(h.log, l)
	h.logLen += l.size
	drop := 0
	for len(h.log)-drop > h.o.Replay || (h.logLen > h.o.ReplayBytes && len(h.log)-drop > 1) {
		h.logLen -= h.log[drop].size
		h.log[drop] = nil
		drop++
	}
	h.log = h.log[drop:]
	for c := range h.conns {
		c.deliver(l)
	}
	for w := range h.watch {
		w.put(Update{Action: a, Origin: origin})
	}
}
