package line

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
	"github.com/elicit-dev/elicit/ui/serve"
)

// A form the line session is asking is answered in the inbox: the prompt
// ends, the session says where it was answered, and the agent gets the
// inbox's content. The next question is asked here as usual.
func TestLineSessionAnsweredInTheInbox(t *testing.T) {
	base := uitest.RuntimeDir(t)
	sv, err := serve.Local(serve.Options{Title: "demo", Inbox: &ahp.SessionMeta{Agent: "demo", Cwd: base}})
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	in, feed := io.Pipe()
	out := &testkit.Buffer{}
	done := make(chan int)
	go func() {
		done <- Run(Options{Agent: uitest.DemoConfig(t), In: in, Out: out, Opener: &uitest.Recorder{}, Share: sv.Share})
	}()
	out.WaitFor(t, "Connected to Demo agent")
	io.WriteString(feed, "/form numbers\n")
	out.WaitFor(t, "Quantity (required):")
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	items, problems := inbox.List(ctx, inbox.Options{})
	if len(items) != 1 || len(problems) != 0 || items[0].Kind != ahp.MetaForm || items[0].Cwd != base {
		t.Fatalf("the inbox has %+v %v", items, problems)
	}
	c, it, err := inbox.Open(ctx, inbox.Options{}, items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	num := func(n string) ahp.Answer {
		return ahp.Answer{State: ahp.Submitted, Value: &ahp.Value{Kind: ahp.ValueNumber, Number: json.Number(n)}}
	}
	if err := inbox.Complete(ctx, c, ahp.InputCompleted{RequestID: it.Request.ID, Response: question.Accept,
		Answers: map[string]ahp.Answer{"quantity": num("7"), "rating": num("2")}}); err != nil {
		t.Fatal(err)
	}
	out.WaitFor(t, "answered in the inbox: accept")
	out.WaitFor(t, `"quantity": 7`)
	if items, _ := inbox.List(ctx, inbox.Options{}); len(items) != 0 {
		t.Fatalf("still in the inbox: %+v", items)
	}
	// A form answered here leaves the inbox as soon as it is answered.
	io.WriteString(feed, "/form numbers\n")
	out.WaitCount(t, "Quantity (required):", 2)
	io.WriteString(feed, "5\n4\n\n\n1\n")
	out.WaitFor(t, `"quantity": 5`)
	if items, _ := inbox.List(ctx, inbox.Options{}); len(items) != 0 {
		t.Fatalf("answered here, still in the inbox: %+v", items)
	}
	feed.Close()
	<-done
}
