package fullscreen

import (
	"context"
	"testing"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
	"github.com/elicit-dev/elicit/ui/serve"
)

// A permission the full screen shows is in the user's inbox, with its
// tool call's title and the agent's options; picked there, the dialog
// here closes saying so, and the agent gets the option picked.
func TestPermissionAnsweredInTheInbox(t *testing.T) {
	base := uitest.RuntimeDir(t)
	sv, err := serve.Local(serve.Options{Title: "demo", Inbox: &ahp.SessionMeta{Agent: "demo", Cwd: base}})
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t), Share: sv.Share})
	d.connected()
	d.ask("/edit")
	d.until("the permission", func() bool { _, ok := d.m.queue.front().(*permModal); return ok })
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	var items []inbox.Item
	var problems []inbox.Problem
	testkit.Until(t, "the permission in the inbox", func() bool {
		items, problems = inbox.List(ctx, inbox.Options{})
		return len(items) > 0 || len(problems) > 0
	}, nil, d.screen)
	if len(items) != 1 || len(problems) != 0 || items[0].Kind != ahp.MetaPermission || items[0].Tool != "Edit demo/settings.go" {
		t.Fatalf("the inbox has %+v %v", items, problems)
	}
	c, it, err := inbox.Open(ctx, inbox.Options{}, items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	reject := ""
	for _, o := range it.Request.Questions[0].Options {
		if o.Description == "reject once" {
			reject = o.ID
		}
	}
	if reject == "" {
		t.Fatalf("no reject option among %+v", it.Request.Questions[0].Options)
	}
	if err := inbox.Complete(ctx, c, ahp.InputCompleted{RequestID: it.Request.ID, Response: question.Accept,
		Answers: map[string]ahp.Answer{"option": {State: ahp.Submitted, Value: &ahp.Value{Kind: ahp.ValueSelected, Selected: reject}}}}); err != nil {
		t.Fatal(err)
	}
	d.waitText("answered in the inbox: accept")
	d.waitText("Reject once (remote client)")
	d.waitText("you rejected the edit")
	if items, _ := inbox.List(ctx, inbox.Options{}); len(items) != 0 {
		t.Fatalf("still in the inbox: %+v", items)
	}
}
