package acpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// TerminalPolicy says what becomes of the agent's terminal/create requests.
// Commands the agent's own process runs, without terminal/*, are outside
// any client's control.
type TerminalPolicy int

// The terminal policies.
const (
	TerminalsAllowed TerminalPolicy = iota // the zero value: commands run, each reported in a Notice
	TerminalsRefused                       // every command is refused, with a Notice (elicit -p without --approve)
)

// The SDK runs each request on a goroutine of its own, so two requests for
// one terminal sent back to back were handled in either order (a release
// overtook the wait_for_exit sent before it, which then found no terminal)
// and answered in either order. terminal/* requests therefore bypass the
// SDK: the gate hands them here in the order the agent sent them; each is
// handled in that order, on one goroutine, so each sees the terminal as
// the requests before it left it; and the answers to one terminal's
// wait_for_exit, kill and release (and to requests that came after a
// release) go out in that order too. output is answered at once, even
// while a wait_for_exit waits: an agent may poll it meanwhile.

// termQueue is how many terminal requests may wait to be handled; the
// gate (and so the reading of the agent's output) waits beyond it.
const termQueue = 16

// termRequest is one terminal/* request as the agent sent it.
type termRequest struct {
	id     json.RawMessage
	method string
	params json.RawMessage
}

// termServer handles terminal/* requests in order; the zero value is ready.
type termServer struct {
	once sync.Once
	in   chan termRequest

	mu      sync.Mutex
	last    map[string]chan struct{}      // by terminal id: closed once its last ordered answer went out
	waiting map[string]context.CancelFunc // pending wait_for_exit, by request id
}

// serveTerminal queues one terminal/* request (line is the whole message)
// for handling in order. It is called by the gate, in stream order.
func (c *Conn) serveTerminal(id json.RawMessage, method string, line []byte) {
	s := &c.termSrv
	s.once.Do(func() {
		s.in = make(chan termRequest, termQueue)
		go c.termLoop()
	})
	var env struct {
		Params json.RawMessage `json:"params"`
	}
	_ = json.Unmarshal(line, &env) // the line decoded once already (see scanFrame)
	select {
	case s.in <- termRequest{id: append(json.RawMessage(nil), id...), method: method, params: env.Params}:
	case <-c.closed:
	}
}

// cancelMethod marks a $/cancel_request in the queue: it is handled in
// order, after the wait_for_exit it may withdraw.
const cancelMethod = "$/cancel_request"

// cancelTerminalWait queues a $/cancel_request (line is the notification)
// for the terminal requests it may withdraw. The gate calls it in stream
// order; nothing is queued before the first terminal request.
func (c *Conn) cancelTerminalWait(line []byte) {
	if c.termSrv.in != nil { // set on this same goroutine (the gate's)
		c.serveTerminal(nil, cancelMethod, line)
	}
}

func (c *Conn) termLoop() {
	for {
		select {
		case r := <-c.termSrv.in:
			c.termHandle(r)
		case <-c.closed:
			return
		}
	}
}

// termHandle handles one request; what waits (for an exit, for a kill)
// waits on a goroutine of its own, and answers after the answers before it.
func (c *Conn) termHandle(r termRequest) {
	s := &c.termSrv
	if r.method == cancelMethod {
		c.cancelWait(r.params)
		return
	}
	if r.method == acp.ClientMethodTerminalCreate {
		var p acp.CreateTerminalRequest
		if err := json.Unmarshal(r.params, &p); err != nil {
			c.termAnswer(r.id, nil, invalidParams("", err.Error()))
			return
		}
		if call := commandCall(p); c.ruleNames(call) && p.Command != "" && c.knownSession(string(p.SessionId), "terminal/create") {
			c.ruledCommand(r, p, call) // the session decides, by the rule (rules.go)
			return
		}
		res, rerr := c.createTerminal(p, false)
		c.termAnswer(r.id, res, rerr)
		return
	}
	var p struct {
		SessionID  string `json:"sessionId"`
		TerminalID string `json:"terminalId"`
	}
	if err := json.Unmarshal(r.params, &p); err != nil || p.TerminalID == "" {
		c.termAnswer(r.id, nil, invalidParams("terminalId", "terminalId is required"))
		return
	}
	if !c.knownSession(p.SessionID, r.method) {
		c.answerInOrder(p.TerminalID, r.id, invalidParams("sessionId", "unknown session"))
		return
	}
	t := c.terms.get(p.TerminalID)
	if t == nil { // after the release that removed it, if it was released
		c.answerInOrder(p.TerminalID, r.id, invalidParams("terminalId", fmt.Sprintf("no terminal %q (never created, or released)", sanitize.ID(p.TerminalID))))
		return
	}
	if r.method == acp.ClientMethodTerminalOutput {
		c.termAnswer(r.id, t.output(), nil)
		return
	}
	if r.method == acp.ClientMethodTerminalRelease {
		c.terms.remove(t.id) // later requests find no terminal
	}
	prev, mine := s.chain(t.id)
	ctx, cancel := context.WithCancel(context.Background())
	key, _ := numericKey(r.id)
	if r.method == acp.ClientMethodTerminalWaitForExit {
		s.setWaiting(key, cancel)
	}
	go func() {
		defer s.unchain(t.id, mine)
		defer close(mine)
		defer cancel()
		var res any
		var rerr *acp.RequestError
		switch r.method {
		case acp.ClientMethodTerminalWaitForExit:
			defer s.setWaiting(key, nil)
			select {
			case <-t.done:
				st := exitStatus(t.exit)
				res = acp.WaitForTerminalExitResponse{ExitCode: st.ExitCode, Signal: st.Signal}
			case <-ctx.Done():
				rerr = acp.NewRequestCancelled(nil)
			case <-c.closed:
				return
			}
		case acp.ClientMethodTerminalKill:
			t.kill()
			res = acp.KillTerminalResponse{}
		default: // release
			t.kill()
			res = acp.ReleaseTerminalResponse{}
		}
		<-prev
		c.termAnswer(r.id, res, rerr)
	}()
}

// answerInOrder refuses a request about terminal tid with rerr, after the
// answers to that terminal still to go out: each refusal takes its place
// in the terminal's chain, so several requests after a release are
// refused in the order they came, not in the order their goroutines wake.
func (c *Conn) answerInOrder(tid string, id json.RawMessage, rerr *acp.RequestError) {
	s := &c.termSrv
	if s.pending(tid) == nil { // nothing before it (only this goroutine adds to a chain)
		c.termAnswer(id, nil, rerr)
		return
	}
	prev, mine := s.chain(tid)
	go func() {
		defer s.unchain(tid, mine)
		defer close(mine)
		<-prev
		c.termAnswer(id, nil, rerr)
	}()
}

// chain makes mine the last ordered answer of terminal id; prev is closed
// once the one before it went out.
func (s *termServer) chain(id string) (prev, mine chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == nil {
		s.last = map[string]chan struct{}{}
	}
	prev, mine = s.last[id], make(chan struct{})
	if prev == nil {
		prev = make(chan struct{})
		close(prev)
	}
	s.last[id] = mine
	return prev, mine
}

// unchain forgets mine once it is the last: nothing waits on it any more.
func (s *termServer) unchain(id string, mine chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last[id] == mine {
		delete(s.last, id)
	}
}

// pending is the last ordered answer of terminal id still to go out, or
// nil.
func (s *termServer) pending(id string) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last[id]
}

func (s *termServer) setWaiting(key string, cancel context.CancelFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiting == nil {
		s.waiting = map[string]context.CancelFunc{}
	}
	if cancel == nil {
		delete(s.waiting, key)
	} else {
		s.waiting[key] = cancel
	}
}

// cancelWait ends a pending wait_for_exit that the agent withdrew with
// $/cancel_request (params are the notification's); it is answered -32800.
func (c *Conn) cancelWait(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	key, _ := numericKey(p.RequestID)
	s := &c.termSrv
	s.mu.Lock()
	cancel := s.waiting[key]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// termAnswer writes the answer to request id on the agent's stdin.
func (c *Conn) termAnswer(id json.RawMessage, result any, rerr *acp.RequestError) {
	msg := map[string]any{"jsonrpc": "2.0", "id": id}
	if rerr != nil {
		msg["error"] = rerr
	} else {
		msg["result"] = result
	}
	b, err := json.Marshal(msg)
	if err != nil {
		b, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": acp.NewInternalError(map[string]any{"error": err.Error()})})
	}
	_, _ = c.out.Write(append(b, '\n'))
}

// commandLine shows a command as a shell would take it: its environment
// additions, the command and its arguments, each quoted where a shell
// would need it, and the directory when it is not the session's; cut
// after maxShownCommand bytes, sanitized.
func commandLine(p acp.CreateTerminalRequest, dir, root string) string {
	var parts []string
	for _, v := range p.Env {
		parts = append(parts, shellQuote(v.Name+"="+v.Value))
	}
	parts = append(parts, shellQuote(p.Command))
	for _, a := range p.Args {
		parts = append(parts, shellQuote(a))
	}
	s := strings.Join(parts, " ")
	if len(s) > maxShownCommand {
		s = fmt.Sprintf("%s… (%d bytes in all)", strings.ToValidUTF8(s[:maxShownCommand], ""), len(s))
	}
	s = "`" + sanitize.Line(s) + "`"
	if dir != root {
		s += " in " + sanitize.Line(dir)
	}
	return s
}

// maxShownCommand is how much of a command line a notice shows.
const maxShownCommand = 2000
