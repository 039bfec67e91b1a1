package serve

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/headless"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// Issue 35, item 4: what `elicit serve` sends, read by a client of the
// protocol's own types (1.1.0): the demo agent's forms (every kind, the
// selects with defaults among them) as requests, in snapshots and
// actions, and the session list. A select's default is a recommended
// option and a draft answer, never a defaultValue.
// Issue 34, item 2: no client can call itself the serving terminal.
func TestServeSendsTheProtocolsShapes(t *testing.T) {
	sv, err := Start(Options{Title: "demo", Name: "serve:ada@desk"})
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	var out, errs testkit.Buffer
	done := make(chan int, 1)
	go func() {
		done <- headless.Run(headless.Options{Agent: uitest.DemoConfig(t), Prompt: "/form", Timeout: time.Minute,
			Stdout: &out, Stderr: &errs, Remote: sv.Remote()})
	}()
	c := testkit.MustDialAHP(t, sv.Server.URL(), sv.Token)
	if m := c.Initialize("serve:ada@desk"); m.Error == nil || !strings.Contains(m.Error.Message, "the host's own") {
		t.Fatalf("a client took the serving terminal's id: %+v", m.Error)
	}
	if m := c.Initialize("shapes"); m.Error != nil {
		t.Fatal(m.Error)
	}
	var bad []string
	shape := func(kind string, raw json.RawMessage) { bad = append(bad, testkit.AHPShape(kind, raw)...) }
	var list struct{ Items []json.RawMessage }
	json.Unmarshal(c.Call("listSessions", map[string]any{"channel": "ahp-root://"}).Result, &list)
	for _, it := range list.Items {
		shape("SessionSummary", it)
	}
	c.Open("q1")
	var sess struct {
		Snapshot struct{ State json.RawMessage }
	}
	json.Unmarshal(c.Call("subscribe", map[string]any{"channel": strings.Replace(c.Chat, "ahp-chat:", "ahp-session:", 1)}).Result, &sess)
	shape("SessionState", sess.Snapshot.State)
	var drafts []string
	for i := 1; i <= 6; i++ {
		id := "q" + string(rune('0'+i))
		if i > 1 {
			c.Open(id)
		}
		var sub struct {
			Snapshot struct{ State json.RawMessage }
		}
		json.Unmarshal(c.Call("subscribe", map[string]any{"channel": c.Chat}).Result, &sub)
		shape("ChatState", sub.Snapshot.State)
		if s := string(sub.Snapshot.State); strings.Contains(s, `"answers":{`) {
			drafts = append(drafts, id)
		}
		if err := c.Dispatch(i, testkit.Completion(id, "decline", nil)); err != nil {
			t.Fatal(err)
		}
	}
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if len(bad) > 0 {
		t.Errorf("not the protocol's shapes:\n%s", strings.Join(bad, "\n"))
	}
	if len(drafts) < 2 { // "defaults" and "enums" have selects with defaults
		t.Errorf("requests that start with drafts: %v, want q1 and q2", drafts)
	}
}
