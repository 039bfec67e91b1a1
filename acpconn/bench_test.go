package acpconn

import (
	"encoding/json"
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// BenchmarkDecodeUpdate compares elicit's decoding of one agent message
// chunk (decodeUpdate, then the reader's classify of the line) with the
// floor: the single json.Unmarshal into the SDK's SessionNotification that
// the no-UI client in bench/noui does.
func BenchmarkDecodeUpdate(b *testing.B) {
	params, err := json.Marshal(acp.SessionNotification{SessionId: "s1", Update: acp.UpdateAgentMessageText("lorem ")})
	if err != nil {
		b.Fatal(err)
	}
	line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":` + string(params) + "}\n")
	b.Run("decodeUpdate", func(b *testing.B) {
		for b.Loop() {
			ev, _, err := decodeUpdate(params)
			if err != nil {
				b.Fatal(err)
			}
			if mc, ok := ev.(MessageChunk); !ok || mc.Text != "lorem " {
				b.Fatalf("decoded %#v", ev)
			}
		}
	})
	b.Run("classify", func(b *testing.B) {
		for b.Loop() {
			if method, note := classify(scanFrame(line)); !method || !note {
				b.Fatal("not a notification")
			}
		}
	})
	b.Run("gate", func(b *testing.B) {
		g := newGate(&Conn{tracer: newTracer(nil)})
		for b.Loop() {
			f, err := scanFrame(line)
			if _, pass, method, note := g.inspect(line, f, err); !pass || !method || !note {
				b.Fatal("not a notification")
			}
		}
	})
	b.Run("floor", func(b *testing.B) {
		for b.Loop() {
			var n acp.SessionNotification
			if err := json.Unmarshal(params, &n); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// sdkEnvelope is the SDK's own decode of every line (its anyMessage),
// which elicit cannot remove without leaving the SDK.
type sdkEnvelope struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      *json.RawMessage  `json:"id,omitempty"`
	Method  string            `json:"method,omitempty"`
	Params  json.RawMessage   `json:"params,omitempty"`
	Result  json.RawMessage   `json:"result,omitempty"`
	Error   *acp.RequestError `json:"error,omitempty"`
}

// benchForm6 is a realistic six-field form.
const benchForm6 = `{"type":"object","properties":{` +
	`"name":{"type":"string","title":"Name","minLength":1,"maxLength":80},` +
	`"email":{"type":"string","title":"Email","format":"email"},` +
	`"age":{"type":"integer","title":"Age","minimum":0,"maximum":150,"default":30},` +
	`"role":{"type":"string","title":"Role","oneOf":[{"const":"dev","title":"Developer"},{"const":"ops","title":"Operations"},{"const":"pm","title":"Product"}]},` +
	`"subscribe":{"type":"boolean","title":"Subscribe","default":false},` +
	`"tags":{"type":"array","title":"Tags","items":{"type":"string","enum":["a","b","c"]},"maxItems":2}},` +
	`"required":["name","email"]}`

// benchLines are the inbound lines the benchmarks read: the commonest
// update, a tool call, a form and the answer to a request.
var benchLines = map[string]string{
	"chunk": `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"The quick brown fox jumps over the lazy dog, again and again. "}}}}` + "\n",
	"tool_call": `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call_42","title":"Read main.go","kind":"read","status":"pending",` +
		`"locations":[{"path":"/src/main.go","line":12}],"content":[{"type":"content","content":{"type":"text","text":"reading"}}]}}}` + "\n",
	"form6":    `{"jsonrpc":"2.0","id":17,"method":"elicitation/create","params":{"sessionId":"s1","mode":"form","message":"Tell me about you","requestedSchema":` + benchForm6 + `}}` + "\n",
	"response": `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}` + "\n",
}

// BenchmarkInbound measures, per kind of line, each decoding step elicit
// takes (gate, the handler's decode of params) and the SDK's envelope
// decode between them; "elicit" is the sum elicit adds to the SDK.
func BenchmarkInbound(b *testing.B) {
	for _, kind := range []string{"chunk", "tool_call", "form6", "response"} {
		line := []byte(benchLines[kind])
		var env sdkEnvelope
		if err := json.Unmarshal(line, &env); err != nil {
			b.Fatal(err)
		}
		handler := func() {
			switch env.Method {
			case "session/update":
				if _, _, err := decodeUpdate(env.Params); err != nil {
					b.Fatal(err)
				}
			case "elicitation/create":
				if _, err := parseElicitation(env.Params, true, true, nil); err != nil {
					b.Fatal(err)
				}
			}
		}
		newGate := func() *gate {
			g := newGate(&Conn{tracer: newTracer(nil)})
			g.outstanding["3"] = "session/prompt"
			return g
		}
		b.Run(kind+"/gate", func(b *testing.B) {
			g := newGate()
			for b.Loop() {
				g.outstanding["3"] = "session/prompt"
				f, err := scanFrame(line)
				if _, pass, _, _ := g.inspect(line, f, err); !pass {
					b.Fatal("dropped")
				}
			}
		})
		b.Run(kind+"/sdk", func(b *testing.B) {
			for b.Loop() {
				var e sdkEnvelope
				if err := json.Unmarshal(line, &e); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(kind+"/handler", func(b *testing.B) {
			for b.Loop() {
				handler()
			}
		})
		b.Run(kind+"/elicit", func(b *testing.B) {
			g := newGate()
			for b.Loop() {
				g.outstanding["3"] = "session/prompt"
				f, err := scanFrame(line)
				if _, pass, _, _ := g.inspect(line, f, err); !pass {
					b.Fatal("dropped")
				}
				handler()
			}
		})
	}
}

// BenchmarkSent is the gate's look at each line the SDK writes (here the
// answer to a form, which it must not mistake for a request).
func BenchmarkSent(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":17,"result":{"action":"accept","content":{"age":30,"name":"Ada","subscribe":false}}}` + "\n")
	g := newGate(&Conn{tracer: newTracer(nil)})
	for b.Loop() {
		g.sent(line)
	}
}
