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
			if method, note := classify(line); !method || !note {
				b.Fatal("not a notification")
			}
		}
	})
	b.Run("gate", func(b *testing.B) {
		g := newGate(&Conn{tracer: newTracer(nil)})
		for b.Loop() {
			if _, pass, method, note := g.inspect(line); !pass || !method || !note {
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
