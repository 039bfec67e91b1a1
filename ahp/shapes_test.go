package ahp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// Issue 35, item 4: everything the host sends has the protocol's shapes
// (1.1.0, as the official types define them): listSessions items carry
// createdAt, an active turn leaves usage out rather than null.
func TestHostSendsTheProtocolsShapes(t *testing.T) {
	h, url := startHost(t, HostOptions{Title: "demo"})
	sel := Question{ID: "size", Kind: KindSingleSelect, Message: "Size?", Options: []Option{{ID: "s", Label: "Small"}, {ID: "m", Label: "Medium", Recommended: true}}}
	if err := h.Request(Request{ID: "r", Message: "Who?", Questions: []Question{textQ("name", true), sel},
		Answers: map[string]Answer{"size": {State: Draft, Value: &Value{Kind: ValueSelected, Selected: "m"}}}}); err != nil {
		t.Fatal(err)
	}
	c := testkit.MustDialAHP(t, url, testToken)
	if m := c.Initialize("shapes"); m.Error != nil {
		t.Fatal(m.Error)
	}
	var bad []string
	var list struct{ Items []json.RawMessage }
	if err := json.Unmarshal(c.Call("listSessions", map[string]any{"channel": RootChannel}).Result, &list); err != nil || len(list.Items) != 1 {
		t.Fatalf("listSessions: %v %d", err, len(list.Items))
	}
	bad = append(bad, testkit.AHPShape("SessionSummary", list.Items[0])...)
	for ch, kind := range map[string]string{SessionURI(h.SessionID()): "SessionState", ChatURI(h.SessionID()): "ChatState"} {
		var sub struct {
			Snapshot struct{ State json.RawMessage }
		}
		if err := json.Unmarshal(c.Call("subscribe", map[string]any{"channel": ch}).Result, &sub); err != nil {
			t.Fatal(err)
		}
		bad = append(bad, testkit.AHPShape(kind, sub.Snapshot.State)...)
	}
	if len(bad) > 0 {
		t.Errorf("not the protocol's shapes:\n%s", strings.Join(bad, "\n"))
	}
}
