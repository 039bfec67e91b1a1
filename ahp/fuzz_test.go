package ahp

import (
	"encoding/json"
	"testing"
)

// FuzzHostMessages feeds a host arbitrary messages from a client after a
// valid handshake: it never panics, answers only with valid JSON-RPC, and
// its state keeps every answer within the limits.
func FuzzHostMessages(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"dispatchAction","params":{"channel":"ahp-chat:/s","clientSeq":1,"action":{"type":"chat/inputAnswerChanged","requestId":"r","questionId":"a","answer":{"state":"draft","value":{"kind":"text","value":"x"}}}}}`,
		`{"jsonrpc":"2.0","method":"dispatchAction","params":{"channel":"ahp-chat:/s","clientSeq":2,"action":{"type":"chat/inputCompleted","requestId":"r","response":"accept","answers":{"a":{"state":"submitted","value":{"kind":"selected-many","value":["x"],"freeformValues":["y"]}}}}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"subscribe","params":{"channel":"ahp-session:/s"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"reconnect","params":{"clientId":"c","lastSeenServerSeq":-5,"subscriptions":["ahp-chat:/s"]}}`,
		`{"jsonrpc":"2.0","id":5,"method":"listSessions","params":{}}`,
		`not json`, `{"jsonrpc":"2.0","id":6}`, `{"jsonrpc":"2.0","method":"dispatchAction","params":{"action":{"type":"chat/inputAnswerChanged","answer":{"value":{"kind":"number","value":"1e99999"}}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		h := NewHost(HostOptions{SessionID: "s", Limits: Limits{MaxText: 64}})
		h.Request(Request{ID: "r", Questions: []Question{{ID: "a", Kind: KindMultiSelect, Message: "a", Options: []Option{{ID: "x"}}, AllowFreeformInput: true},
			{ID: "b", Kind: KindText, Message: "b", Required: true}}})
		var out [][]byte
		p, err := h.Attach(func(b []byte) bool { out = append(out, b); return true }, func() {})
		if err != nil {
			t.Fatal(err)
		}
		p.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"channel":"ahp-root://","protocolVersions":["1.1.0"],"clientId":"c","initialSubscriptions":["ahp-chat:/s","ahp-session:/s"]}}`))
		p.Handle(msg)
		for _, b := range out {
			var m rpcMessage
			if err := json.Unmarshal(b, &m); err != nil || m.JSONRPC != "2.0" {
				t.Fatalf("host sent %q", b)
			}
		}
		in := h.Inputs()
		for _, e := range in.Entries {
			for qid, a := range e.Request.Answers {
				q := e.Request.Question(qid)
				if q == nil {
					t.Fatalf("an answer to no question: %q", qid)
				}
				if err := CheckAnswer(q, &a, Limits{MaxText: 64}); err != nil {
					t.Fatalf("the host kept an answer it should refuse: %v", err)
				}
			}
		}
	})
}
