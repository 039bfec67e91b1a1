package testkit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// RawAHP is a hostile AHP client for the tests: it speaks the wire itself
// (JSON-RPC 2.0, one message per WebSocket text frame), so it can send
// what elicit's own client never would. Every read is bounded by Hang.
type RawAHP struct {
	t    testing.TB
	c    *websocket.Conn
	ctx  context.Context
	id   int
	Chat string // the session's chat channel, once Open returned
}

// Reply is one message from the host: a response (ID set) or a
// notification (Method set).
type Reply struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// DialAHP connects to url with token as the bearer token ("" sends none)
// and the extra headers; the error is the upgrade's (its status in it).
func DialAHP(t testing.TB, url, token string, header http.Header) (*RawAHP, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Hang)
	t.Cleanup(cancel)
	h := header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h, Host: h.Get("Host")})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(256 << 20)
	t.Cleanup(func() { c.CloseNow() })
	return &RawAHP{t: t, c: c, ctx: ctx}, nil
}

// MustDialAHP is DialAHP failing the test on an error.
func MustDialAHP(t testing.TB, url, token string) *RawAHP {
	t.Helper()
	r, err := DialAHP(t, url, token, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Send writes one message.
func (r *RawAHP) Send(v any) error {
	b, _ := json.Marshal(v)
	return r.c.Write(r.ctx, websocket.MessageText, b)
}

// Call sends a request and reads until its response, dropping the
// notifications before it.
func (r *RawAHP) Call(method string, params any) Reply {
	r.t.Helper()
	r.id++
	id := r.id
	if err := r.Send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		r.t.Fatalf("%s: %v", method, err)
	}
	for {
		m := r.Read()
		if m.ID != nil && *m.ID == id {
			return m
		}
	}
}

// Read reads the next message.
func (r *RawAHP) Read() Reply {
	r.t.Helper()
	_, b, err := r.c.Read(r.ctx)
	if err != nil {
		r.t.Fatalf("reading from the host: %v", err)
	}
	var m Reply
	if err := json.Unmarshal(b, &m); err != nil {
		r.t.Fatalf("%v: %s", err, b)
	}
	return m
}

// Initialize says hello as clientID (protocol 1.1.0); the reply's Error
// is nil when the host took it.
func (r *RawAHP) Initialize(clientID string) Reply {
	r.t.Helper()
	return r.Call("initialize", map[string]any{"channel": "ahp-root://", "protocolVersions": []string{"1.1.0"}, "clientId": clientID})
}

// Open subscribes to the session's chat and waits until request id is
// open in it.
func (r *RawAHP) Open(id string) {
	r.t.Helper()
	ls := r.Call("listSessions", map[string]any{"channel": "ahp-root://"})
	var list struct {
		Items []struct {
			Resource string `json:"resource"`
		} `json:"items"`
	}
	if err := json.Unmarshal(ls.Result, &list); err != nil || len(list.Items) != 1 {
		r.t.Fatalf("listSessions: %s %v", ls.Result, err)
	}
	r.Chat = "ahp-chat:/" + strings.TrimPrefix(list.Items[0].Resource, "ahp-session:/")
	want := fmt.Sprintf(`"id":%q`, id)
	if sub := r.Call("subscribe", map[string]any{"channel": r.Chat}); strings.Contains(string(sub.Result), want) {
		return
	}
	for {
		m := r.Read()
		if m.Method == "action" && strings.Contains(string(m.Params), "inputRequested") && strings.Contains(string(m.Params), want) {
			return
		}
	}
}

// Dispatch sends one action to the chat channel.
func (r *RawAHP) Dispatch(seq int, action any) error {
	return r.Send(map[string]any{"jsonrpc": "2.0", "method": "dispatchAction",
		"params": map[string]any{"channel": r.Chat, "clientSeq": seq, "action": action}})
}

// Drain reads and drops everything the host sends from now on, so a
// flooding client is never dropped for reading too slowly.
func (r *RawAHP) Drain() {
	go func() {
		for {
			if _, _, err := r.c.Read(r.ctx); err != nil {
				return
			}
		}
	}()
}

// TextDraft is a draft answer of text to question q of request req.
func TextDraft(req, q, text string) map[string]any {
	return map[string]any{"type": "chat/inputAnswerChanged", "requestId": req, "questionId": q,
		"answer": map[string]any{"state": "draft", "value": map[string]any{"kind": "text", "value": text}}}
}

// Completion completes request req with response and answers (nil: none).
func Completion(req, response string, answers map[string]any) map[string]any {
	a := map[string]any{"type": "chat/inputCompleted", "requestId": req, "response": response}
	if answers != nil {
		a["answers"] = answers
	}
	return a
}

// TryRead reads the next message; the error says why none came (the
// connection ended).
func (r *RawAHP) TryRead() (Reply, error) {
	_, b, err := r.c.Read(r.ctx)
	if err != nil {
		return Reply{}, err
	}
	var m Reply
	return m, json.Unmarshal(b, &m)
}
