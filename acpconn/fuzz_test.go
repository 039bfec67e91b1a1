package acpconn

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// hostileSeeds are one message of each kind with an attack in every string
// (see internal/hostile for the whole corpus, run against the binary).
func hostileSeeds() []string {
	q := func(field string) string {
		b, _ := json.Marshal(field + "\x1b]0;T\x07\x1b[5m\u009b2J\u202e\u200d\u200b\x07\r")
		return string(b)
	}
	n := func(update string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":` + update + `}}`
	}
	return []string{
		n(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":` + q("chunk") + `}}`),
		n(`{"sessionUpdate":"agent_thought_chunk","content":{"type":"resource_link","name":` + q("n") + `,"uri":` + q("u") + `}}`),
		n(`{"sessionUpdate":"tool_call","toolCallId":` + q("id") + `,"title":` + q("t") + `,"kind":` + q("k") + `,"status":` + q("s") +
			`,"content":[{"type":"content","content":{"type":"text","text":` + q("c") + `}},{"type":"diff","path":` + q("p") + `,"oldText":` + q("o") + `,"newText":` + q("n") + `},{"type":"terminal","terminalId":` + q("term") + `}],"locations":[{"path":` + q("l") + `,"line":3}]}`),
		n(`{"sessionUpdate":"tool_call_update","toolCallId":` + q("id") + `,"title":` + q("t") + `,"status":` + q("s") + `}`),
		n(`{"sessionUpdate":"tool_call_update","toolCallId":"t","_meta":{"terminal_info":{"terminal_id":` + q("ti") + `},"terminal_output":{"terminal_id":"t","data":` + q("out") +
			`},"terminal_output_delta":{"terminal_id":"t","data":` + q("delta") + `},"terminal_exit":{"terminal_id":"t","exit_code":null,"signal":` + q("sig") + `}}}`),
		n(`{"sessionUpdate":"plan","entries":[{"content":` + q("c") + `,"priority":` + q("p") + `,"status":` + q("s") + `}]}`),
		n(`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":` + q("n") + `,"description":` + q("d") + `}]}`),
		n(`{"sessionUpdate":"current_mode_update","currentModeId":` + q("m") + `}`),
		n(`{"sessionUpdate":"config_option_update","configOptions":[{"type":"select","id":` + q("i") + `,"name":` + q("n") + `,"description":` + q("d") + `,"currentValue":` + q("v") + `,"options":[{"value":` + q("v") + `,"name":` + q("vn") + `}]},{"type":"boolean","id":` + q("b") + `,"name":` + q("bn") + `,"currentValue":true}]}`),
		n(`{"sessionUpdate":"session_info_update","title":` + q("t") + `}`),
		n(`{"sessionUpdate":"usage_update","used":1,"size":2,"cost":{"amount":1,"currency":` + q("c") + `}}`),
		n(`{"sessionUpdate":` + q("unknown") + `}`),
		`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":` + q("t") + `,"title":` + q("tt") + `},"options":[{"optionId":` + q("o") + `,"name":` + q("on") + `,"kind":"allow_once"}]}}`,
		`{"jsonrpc":"2.0","id":8,"method":"elicitation/create","params":{"sessionId":"s","toolCallId":` + q("tc") + `,"mode":"form","message":` + q("m") + `,"requestedSchema":{"type":"object","title":` + q("st") + `,"properties":{"a":{"type":"string","title":` + q("at") + `,"pattern":` + q("pa") + `,"default":` + q("de") + `}}}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"sessionId":"s","mode":"url","message":` + q("m") + `,"elicitationId":` + q("e") + `,"url":"https://pay\u200bpal.com/\u202e"}}`,
		`{"jsonrpc":"2.0","method":"elicitation/complete","params":{"elicitationId":` + q("e") + `}}`,
	}
}

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
	for _, s := range hostileSeeds() {
		f.Add([]byte(s + "\n"))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		stop := make(chan struct{})
		c := &Conn{
			cfg: Config{}, root: t.TempDir(), events: make(chan Event, 16),
			closed: stop, exited: make(chan struct{}), pending: map[uint64]*pending{}, tracer: newTracer(nil),
			sessions: map[string]bool{"s": true},
		}
		c.approvals = newApprovals(stop)
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
					if a, ok := ev.(question.Asked); ok {
						c.Answer(a.Q, question.Outcome{Action: question.Cancel})
					}
				case <-c.rpc.Done():
					return
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(testkit.Hang):
			t.Fatal("inbound handling hung")
		}
		close(stop)
	})
}

// rawFields are the event fields that carry the agent's value exactly,
// because it goes back on the wire or is analysed as sent: identifiers,
// the URL and its analysis, and the form schema (keys, option values,
// defaults and patterns are data the response must echo; the forms shown
// from it go through sanitize where they are drawn). The UI must show each
// only through sanitize.ID (identifiers), urlcheck.Visible (URL parts) or
// the form's own sanitizing (schema text). Every other string must already
// be sanitized text.
var rawFields = map[string]bool{
	"Asked.Q.From.Session":            true,
	"Asked.Q.From.RequestID":          true,
	"Asked.Q.From.ToolCall":           true,
	"Asked.Q.ElicitationID":           true,
	"Asked.Q.URL":                     true,
	"Asked.Q.Report":                  true,
	"Asked.Q.Schema":                  true,
	"FlowComplete.ElicitationID":      true,
	"Asked.Q.Options.ID":              true,
	"Asked.Q.Tool.ID":                 true,
	"Asked.Q.Tool.Terminals":          true,
	"ToolTitle.ID":                    true,
	"ToolCall.ID":                     true,
	"ToolCall.Terminals":              true,
	"ModeChanged.ID":                  true,
	"ConfigOptions.Options.ID":        true,
	"ConfigOptions.Options.Current":   true,
	"ConfigOptions.Options.Values.ID": true,
	"TerminalOutput.TerminalID":       true,
	"TerminalOutput.ToolCallID":       true,
	"MessageChunk.Faithful":           true, // for pipes only; no ESC/C1 (checked by termout)
}

// checkSanitized fails when any string in an event, however deep, holds an
// escape sequence, a control character other than newline and tab, or a
// bidi or invisible character, except the raw fields above.
func checkSanitized(t *testing.T, ev Event) {
	v := reflect.ValueOf(ev)
	walkStrings(v, v.Type().Name(), func(path, s string) {
		if rawFields[path] {
			return
		}
		for _, r := range s {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || sanitize.Visible(r) {
				t.Fatalf("unsanitized %U in %s: %q", r, path, s)
			}
		}
	})
}

// walkStrings calls f with every string reachable from v and its path
// (type, then field names; slice elements share their slice's path).
func walkStrings(v reflect.Value, path string, f func(path, s string)) {
	if rawFields[path] {
		return
	}
	switch v.Kind() {
	case reflect.String:
		f(path, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(v.Elem(), path, f)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkStrings(v.Field(i), path+"."+v.Type().Field(i).Name, f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkStrings(v.Index(i), path, f)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			walkStrings(k, path, f)
			walkStrings(v.MapIndex(k), path, f)
		}
	}
}
