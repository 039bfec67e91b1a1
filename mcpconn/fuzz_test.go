package mcpconn

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzObserveSchema checks the observer's promise: whatever object a
// server sends as a requestedSchema, the handler, holding only the decoded
// map, gets back the exact bytes the server wrote (so the form keeps its
// order); and no message, however broken, makes it panic.
func FuzzObserveSchema(f *testing.F) {
	f.Add([]byte(orderedSchema), "Fill this in")
	f.Add([]byte(`{"type":"object","properties":{"b":{"type":"number","default":1e400},"a":{"type":"string"}}}`), "")
	f.Add([]byte(`{"x":1.0,"y":1}`), "\u2028")
	f.Add([]byte(`not json`), "m")
	f.Fuzz(func(t *testing.T, schema []byte, message string) {
		o := newObserver(nil)
		o.in(schema) // any bytes as a message: no panic
		o.out(schema)
		if !json.Valid(schema) || bytes.TrimSpace(schema)[0] != '{' {
			return
		}
		// The wire message as a server writes it: json.Marshal would also
		// rewrite <, > and & inside the embedded schema (as \u003c...), and
		// the claim must give back the bytes that were on the wire.
		var enc bytes.Buffer
		e := json.NewEncoder(&enc)
		e.SetEscapeHTML(false)
		_ = e.Encode(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
			"params": map[string]any{"message": message, "requestedSchema": json.RawMessage(schema)}})
		msg := bytes.TrimSuffix(enc.Bytes(), []byte("\n"))
		tap := lineTap{f: o.in}
		tap.feed(append(msg, '\n'))
		var wire struct { // what the SDK hands the handler
			Params struct {
				Message         string `json:"message"`
				RequestedSchema any    `json:"requestedSchema"`
			} `json:"params"`
		}
		if json.Unmarshal(msg, &wire) != nil {
			return // the SDK could not decode it either: no handler runs
		}
		got, a := o.claim(wire.Params.Message, wire.Params.RequestedSchema)
		var compact bytes.Buffer
		json.Compact(&compact, schema)
		if !bytes.Equal(got, compact.Bytes()) {
			t.Fatalf("claimed %q, want %q", got, compact.Bytes())
		}
		if a == nil || !a.handled {
			t.Fatal("the request was not marked handled")
		}
	})
}
