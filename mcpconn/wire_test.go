package mcpconn

import (
	"strings"
	"testing"
)

// TestObserverSkipsTooDeep: a hostile server's message nested deeper than
// the SDK accepts (which refuses it whole) is not decoded by the observer
// either: segmentio's decoder recurses once per level, and eight million
// levels would overflow the stack. The observer goes on with the next
// message.
func TestObserverSkipsTooDeep(t *testing.T) {
	o := newObserver(nil)
	n := (maxObserved - 200) / 2
	deep := `{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"m","requestedSchema":` +
		strings.Repeat("[", n) + strings.Repeat("]", n) + `}}`
	if !tooDeep([]byte(deep)) {
		t.Fatal("not too deep")
	}
	o.in([]byte(deep))
	if len(o.asked) != 0 {
		t.Fatalf("a message the SDK refuses was observed: %v", o.asked)
	}
	// Brackets inside strings do not count, and a message at the SDK's
	// limit is read.
	ok := `{"jsonrpc":"2.0","id":8,"method":"elicitation/create","params":{"message":"` + strings.Repeat("[", 5000) +
		`","requestedSchema":{"type":"object","properties":{"a":{"type":"string","default":` + strings.Repeat("[", maxDepth-5) + strings.Repeat("]", maxDepth-5) + `}}}}}`
	if tooDeep([]byte(ok)) {
		t.Fatal("brackets in a string counted")
	}
	o.in([]byte(ok))
	if a := o.asked["8"]; a == nil || !strings.HasPrefix(a.message, "[[[") {
		t.Fatalf("a message within the limit was not observed: %v", o.asked)
	}
}

// TestObserverReadsAsTheSDK: member names are matched exactly, as the
// SDK's decoder matches them (encoding/json would take "Message" for
// "message"), so the observer keys a form by what the SDK decoded.
func TestObserverReadsAsTheSDK(t *testing.T) {
	var p wireElicit
	if !decode([]byte(`{"message":"said","Message":"shouted","requestedSchema":{}}`), &p) || p.Message != "said" {
		t.Fatalf("message %q", p.Message)
	}
	if decode([]byte(`{"message":"a"} x`), &p) || decode([]byte(`{"message":`), &p) {
		t.Fatal("not one JSON value, decoded")
	}
}
