package acpconn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// served are the requests this client answers; the gate answers any other
// request itself with -32601, so the handler (and the ordering
// bookkeeping) sees only these.
var served = map[string]bool{
	"session/request_permission": true, "elicitation/create": true,
	"fs/read_text_file": true, "fs/write_text_file": true,
	"terminal/create": true, "terminal/output": true, "terminal/wait_for_exit": true,
	"terminal/kill": true, "terminal/release": true,
}

// requestOnly are methods that are requests by definition: sent without an
// id they are refused, never shown (nobody could answer them).
func requestOnly(method string) bool {
	return served[method] || strings.HasPrefix(method, "terminal/")
}

// gate inspects every line between the agent's stdout and the SDK, and
// every message the SDK sends, to keep what the SDK would lose or hang on
// from reaching it: requests without an id, requests this client does not
// serve, and answers whose id has the wrong JSON type or that cannot be
// decoded at all (the SDK drops those, and the call waits forever). It
// also learns the session ids the agent creates, in stream order.
type gate struct {
	c *Conn

	mu          sync.Mutex
	outstanding map[string]string // id of each request we sent and await -> its method
	noted       map[string]bool   // notices given once
}

func newGate(c *Conn) *gate {
	return &gate{c: c, outstanding: map[string]string{}, noted: map[string]bool{}}
}

// sent records a message the SDK writes to the agent (one scan, as for
// inbound lines: see scan.go).
func (g *gate) sent(line []byte) {
	f, err := scanFrame(line)
	if err != nil || f.id == nil {
		return
	}
	if f.method == "" { // an answer: what its request took is free again
		key, _ := numericKey(f.id)
		g.c.fsBudget.answered(key)
		return
	}
	g.mu.Lock()
	g.outstanding[string(f.id)] = f.method
	g.mu.Unlock()
}

// inspect decides what becomes of one line from the agent, from the one
// scan of it (f, or err when the SDK cannot decode it): passed on as it is
// (pass), replaced by out, or dropped (pass false, out nil). method and
// note classify a passed line for the throttle, as the SDK will see it.
func (g *gate) inspect(line []byte, f frame, err error) (out []byte, pass, method, note bool) {
	if blank(line) {
		return line, true, false, false
	}
	if err != nil {
		out := g.undecodable(line, err)
		return out, out != nil, false, false
	}
	switch {
	case f.method != "" && f.id == nil:
		if requestOnly(f.method) {
			g.noteOnce("idless "+f.method, fmt.Sprintf("refused %s sent without an id: a request needs one to be answered", sanitize.Line(f.method)))
			return nil, false, false, false
		}
		if f.method == "$/cancel_request" {
			g.c.cancelTerminalWait(line) // the SDK does not see terminal requests
		}
		return line, true, f.method != "$/cancel_request", true
	case f.method != "":
		if !served[f.method] {
			g.c.tracer.note("refused " + f.method + ": not served")
			g.reply(f.id, -32601, "Method not found: this client does not serve "+f.method)
			return nil, false, false, false
		}
		if why := g.c.refusedRemote(f.method); why != "" {
			g.c.tracer.note("refused " + f.method + ": " + why)
			g.reply(f.id, -32601, "Method not found: "+why)
			return nil, false, false, false
		}
		if strings.HasPrefix(f.method, "terminal/") { // handled in order (terminal_serve.go)
			g.c.serveTerminal(f.id, f.method, line)
			return nil, false, false, false
		}
		if strings.HasPrefix(f.method, "fs/") { // see budget.go
			key, _ := numericKey(f.id)
			if !g.c.fsBudget.take(key, fsWeight(f.method, line)) {
				return nil, false, false, false
			}
		}
		if f.method == "session/request_permission" {
			g.c.approvals.passedOne() // in stream order: writes after it wait for it
		}
		return line, true, true, false
	case f.id != nil:
		return g.response(line, f)
	}
	return line, true, false, false
}

// response checks an answer's id against the requests we await.
func (g *gate) response(line []byte, f frame) (out []byte, pass, method, note bool) {
	id := f.id
	key, isNumber := numericKey(id)
	g.mu.Lock()
	m, ok := g.outstanding[key]
	if ok {
		delete(g.outstanding, key)
	}
	g.mu.Unlock()
	if ok { // an answer to a request we await goes to the SDK either way
		g.c.answers.pass()
	}
	switch {
	case ok && isNumber:
		if m == "session/new" { // once a session: its result is decoded here
			var r struct {
				SessionID string `json:"sessionId"`
			}
			if json.Unmarshal(f.result, &r) == nil && r.SessionID != "" {
				g.c.addSession(r.SessionID)
			}
		}
		return line, true, false, false
	case ok:
		return g.protocolError(key, fmt.Sprintf("the agent answered %s with the id %s, which is not the number %s it was sent", m, sanitize.Summary(string(id), 40), key)), true, false, false
	case !isNumber:
		g.noteOnce("stray id", "ignored an answer from the agent with the id "+sanitize.Summary(string(id), 40)+", which matches no request")
		return nil, false, false, false
	}
	return line, true, false, false // late or unknown: the SDK ignores it
}

// undecodable handles a line encoding/json cannot read (not JSON, nested
// too deep, a field of the wrong type): an answer to a request we await
// fails that request; a request gets a parse error; anything else is
// passed on for the SDK to log and drop.
func (g *gate) undecodable(line []byte, err error) []byte {
	id, hasMethod, ok := scanTop(line)
	reason := sanitize.Summary(err.Error(), 80)
	switch {
	case ok && id != nil && hasMethod:
		g.reply(id, -32700, "Parse error: "+err.Error())
		g.noteOnce("bad request", "refused a request from the agent that could not be read: "+reason)
		return nil
	case ok && id != nil:
		key, _ := numericKey(id)
		g.mu.Lock()
		m, awaited := g.outstanding[key]
		delete(g.outstanding, key)
		g.mu.Unlock()
		if awaited {
			return g.protocolError(key, "the agent's answer to "+m+" could not be read: "+reason)
		}
	}
	if len(line) > 0 && line[0] == '{' { // other lines are shown as agent output (stdout.go)
		g.noteOnce("bad line", "ignored a line from the agent that is not valid JSON-RPC: "+reason)
	}
	return line
}

// protocolError is an error answer, as if from the agent, for request key.
func (g *gate) protocolError(key, what string) []byte {
	g.c.tracer.note("protocol error: " + what)
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(key),
		"error": map[string]any{"code": -32603, "message": "protocol error: " + what}})
	return append(b, '\n')
}

// reply answers an agent's request with an error, on the agent's stdin.
func (g *gate) reply(id json.RawMessage, code int, msg string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	_, _ = g.c.out.Write(append(b, '\n'))
}

func (g *gate) noteOnce(key, text string) {
	g.mu.Lock()
	seen := g.noted[key]
	g.noted[key] = true
	g.mu.Unlock()
	g.c.tracer.note(text)
	if !seen {
		g.c.emit(Notice{Text: text, Error: true})
	}
}

// numericKey is the canonical text of a JSON-RPC id as our requests carry
// it (a plain integer): a number is canonicalised (3, 3.0 and 3e0 are all
// "3"); a string's content is given with isNumber false, so "3" maps to
// the request 3 it wrongly answers.
func numericKey(id json.RawMessage) (key string, isNumber bool) {
	t := bytes.TrimSpace(id)
	if len(t) > 0 && t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) == nil {
			return strings.TrimSpace(s), false
		}
		return string(t), false
	}
	if n, err := strconv.ParseInt(string(t), 10, 64); err == nil {
		return strconv.FormatInt(n, 10), true
	}
	if f, err := strconv.ParseFloat(string(t), 64); err == nil && f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10), true
	}
	return string(t), false
}

// scanTop reads, from a JSON object encoding/json refuses (it stops at
// 10,000 levels and has no shallow mode; hand-written for that), its
// top-level "id" when a string or number, and whether it has a top-level
// "method". ok is false when it is not an object at all.
func scanTop(b []byte) (id json.RawMessage, hasMethod, ok bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil, false, false
	}
	depth, key, wantKey := 0, "", false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			j := stringEnd(b, i)
			if j < 0 {
				return id, hasMethod, true
			}
			if depth == 1 && wantKey {
				key, wantKey = string(b[i+1:j]), false
				hasMethod = hasMethod || key == "method"
			} else if depth == 1 && key == "id" {
				id = json.RawMessage(b[i : j+1])
			}
			i = j
		case c == '{' || c == '[':
			depth++
			wantKey = depth == 1
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 1:
			wantKey = true
		case depth == 1 && key == "id" && !wantKey && (c == '-' || c >= '0' && c <= '9'):
			j := i
			for j < len(b) && strings.IndexByte("+-.eE0123456789", b[j]) >= 0 {
				j++
			}
			id, i = json.RawMessage(b[i:j]), j-1
		}
	}
	return id, hasMethod, true
}

// stringEnd is the index of the quote that closes the string opening at i.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}
