package fullscreen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

func init() {
	// remote-form asks a form on each prompt, and asks it again when its
	// session is resumed on a new connection (the old request died with
	// the old connection); it says what it got.
	uitest.Scripts["remote-form"] = func(a *uitest.RawAgent) {
		ask := func(sid string) {
			r := a.Request("elicitation/create", map[string]any{"sessionId": sid, "mode": "form", "message": "Your name?",
				"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string", "title": "Name"}}, "required": []any{"name"}}})
			res, _ := r["result"].(map[string]any)
			content, _ := res["content"].(map[string]any)
			a.Say(sid, "m1", fmt.Sprintf("thanks %v (%v)", content["name"], res["action"]))
		}
		a.Serve(map[string]any{"agentCapabilities": map[string]any{"sessionCapabilities": map[string]any{"resume": map[string]any{}}}},
			func(m, p map[string]any) {
				switch m["method"] {
				case "session/new":
					a.Reply(m, map[string]any{"sessionId": "s1"})
				case "session/resume":
					a.Reply(m, map[string]any{})
					ask("s1")
				case "session/prompt":
					ask("s1")
					a.Reply(m, map[string]any{"stopReason": "end_turn"})
				}
			})
	}
}

// A form half filled when the connection drops stays open with what was
// typed; elicit reconnects, resumes the session, the agent asks again, and
// the same form answers the new request.
func TestRemoteFormSurvivesDrop(t *testing.T) {
	for _, tc := range []struct{ force, name string }{{acpconn.TransportWS, "WebSocket"}, {acpconn.TransportHTTP, "HTTP+SSE"}} {
		t.Run(tc.force, func(t *testing.T) {
			s, url := uitest.ServeScript(t, "remote-form")
			d := newDriver(t, Options{Agent: acpconn.Config{Dir: t.TempDir(), Remote: &acpconn.Remote{URL: url, Transport: tc.force}}})
			d.connected()
			d.waitText("over " + tc.name)
			d.ask("hi")
			f := d.frontForm()
			d.typeText("Ad")
			s.Drop()
			d.until("the connection reported lost", func() bool { return d.m.acp().rc.active })
			d.until("the form asked again", func() bool { return d.m.acp().connState == connReady && !d.m.core.IsDetached(f.q) })
			if d.m.queue.front() != f {
				t.Fatalf("the form was replaced:\n%s", d.screen())
			}
			d.typeText("a")
			d.keys("enter", "enter")
			d.waitText("thanks Ada (accept)")
			if tr := d.m.Transcript(); !strings.Contains(tr, "was lost") || !strings.Contains(tr, "asked the form") {
				t.Errorf("transcript:\n%s", tr)
			}
		})
	}
}
