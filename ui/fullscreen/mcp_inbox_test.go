package fullscreen

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
	"github.com/elicit-dev/elicit/ui/serve"
)

// A server's form waiting in elicit mcp's full screen is in the user's inbox;
// answered there, it closes here saying so, and the server gets the
// inbox's content.
func TestMCPFormAnsweredInTheInbox(t *testing.T) {
	uitest.RuntimeDir(t)
	sv, err := serve.Local(serve.Options{Title: "UI Test Server", Inbox: &ahp.SessionMeta{Agent: "uitest", Front: "mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	d := newMCPDriver(t, Options{Share: sv.Share})
	d.pick("signup")
	d.key("enter")
	d.waitText("⚑ UI Test Server asks a form question · tab to answer")
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	items, problems := inbox.List(ctx, inbox.Options{})
	if len(items) != 1 || len(problems) != 0 || items[0].Agent != "uitest" {
		t.Fatalf("the inbox has %+v %v", items, problems)
	}
	c, it, err := inbox.Open(ctx, inbox.Options{}, items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	answers := map[string]ahp.Answer{"name": {State: ahp.Submitted, Value: &ahp.Value{Kind: ahp.ValueText, Text: "Inbox"}}}
	for id, a := range it.Request.Answers { // the defaults, as the form holds them
		if _, ok := answers[id]; !ok {
			a.State = ahp.Submitted
			answers[id] = a
		}
	}
	if err := inbox.Complete(ctx, c, ahp.InputCompleted{RequestID: it.Request.ID, Response: question.Accept, Answers: answers}); err != nil {
		b, _ := json.Marshal(it.Request)
		t.Fatalf("%v\n%s", err, b)
	}
	d.waitText("answered in the inbox: accept")
	d.waitText(`"name":"Inbox"`)
}
