package acpconn

import (
	"bytes"
	"io"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// FuzzInbound feeds arbitrary lines from an "agent" through the real SDK
// connection, the throttled reader and the handler: nothing may panic or
// hang, every question that reaches the UI can be answered, and every
// string in an event is already sanitized.
func FuzzInbound(f *testing.F) {
	seeds := []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi\u001b[2J"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"x"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"sessionId":"s","mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]}}}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"mode":"url","message":"m","elicitationId":"e","url":"https://xn--80ak6aa92e.com/"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t"},"options":[{"optionId":"a","name":"A","kind":"allow_once"}]}}`,
		`{"jsonrpc":"2.0","method":"elicitation/complete","params":{"elicitationId":"e"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/etc/passwd"}}`,
		`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`,
		`not json`, `{}`, `{"id":null}`, `[]`,
	}
	for _, s := range seeds {
		f.Add([]byte(s + "\n"))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		stop := make(chan struct{})
		c := &Conn{
			cfg: Config{}, root: t.TempDir(), events: make(chan Event, 16),
			closed: stop, exited: make(chan struct{}), pending: map[uint64]*pending{}, tracer: newTracer(nil),
			sessions: map[string]bool{"s": true},
		}
		c.gate = newGate(c)
		c.out = &outWriter{w: io.Discard, tracer: c.tracer, gate: c.gate}
		c.reader = newThrottledReader(bytes.NewReader(input), stop, nil)
		c.reader.filter = c.gate.inspect
		c.rpc = acp.NewConnection(c.handle, c.out, c.reader)
		c.rpc.SetLogger(logDiscard)
		c.reader.open()
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case ev := <-c.events:
					checkSanitized(t, ev)
					switch ev := ev.(type) {
					case PermissionRequest:
						c.RespondPermission(ev.ID, "")
					case ElicitationRequest:
						c.RespondElicitation(ev.ID, "cancel", nil)
					}
				case <-c.rpc.Done():
					return
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("inbound handling hung")
		}
		close(stop)
	})
}

// checkSanitized fails when an event carries an escape or control byte
// where it is meant for display (ids are exact, for the wire).
func checkSanitized(t *testing.T, ev Event) {
	var texts []string
	switch ev := ev.(type) {
	case MessageChunk:
		texts = []string{ev.Text}
	case ToolCall:
		texts = append([]string{ev.Title, ev.Kind, ev.Status}, append(ev.Locations, ev.Content...)...)
	case Notice:
		texts = []string{ev.Text}
	case ElicitationRequest:
		texts = []string{ev.Message}
	case FileAccess:
		texts = []string{ev.Path, ev.Old, ev.New, ev.Reason}
	case UnknownUpdate:
		texts = []string{ev.Kind}
	}
	for _, s := range texts {
		for _, r := range s {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 {
				t.Fatalf("unsanitized %U in %T: %q", r, ev, s)
			}
		}
	}
}
