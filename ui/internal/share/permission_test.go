package share

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// permAgent records the permission answers the core sent the agent.
type permAgent struct {
	mu  sync.Mutex
	out []question.Outcome
}

func (a *permAgent) Answer(q *question.Question, out question.Outcome) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.out = append(a.out, out)
	return true
}

// A permission reaches the inbox (a same-user client on the session's
// socket) with its options and its full command, never a network client;
// the inbox's pick goes back through the core to the agent as the
// option's id, and the answer says it came from the inbox.
func TestPermissionThroughTheInbox(t *testing.T) {
	uitest.RuntimeDir(t)
	h := ahp.NewHost(ahp.HostOptions{Meta: &ahp.SessionMeta{Agent: "demo"}})
	defer h.Close()
	pub, err := inbox.Publish(h, ahp.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	srv, err := ahp.Listen(ahp.ServerOptions{Token: "tok-0123456789abcdef"}, h)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	s, err := New(h, "desk", Options{Permissions: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := &permAgent{}
	c := session.New(a, session.Policy{Person: true}, time.Now)
	c.SetObserver(s)
	q := &question.Question{ID: 9, Kind: question.Permission, From: question.From{Tool: "Run make clean"},
		Tool:    &question.Tool{ID: "t1", Title: "Run make clean", Kind: "execute", Content: []string{"make clean && rm -rf build/"}},
		Options: []question.Option{{ID: "allow-1", Name: "Allow once", Kind: "allow_once"}, {ID: "reject-1", Name: "Reject", Kind: "reject_once"}}}
	c.Settle(context.Background(), c.Apply(question.Asked{Q: q}))
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()

	remote, err := ahp.Dial(ctx, ahp.ClientOptions{URL: srv.URL(), Token: "tok-0123456789abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	if in := remote.Inputs(); len(in.OpenRequests()) != 0 {
		t.Fatalf("a network client sees the permission: %+v", in)
	}
	items, problems := inbox.List(ctx, inbox.Options{})
	if len(items) != 1 || len(problems) != 0 {
		t.Fatalf("inbox: %+v %v", items, problems)
	}
	it := items[0]
	if it.Kind != ahp.MetaPermission || it.Tool != "Run make clean" || !strings.Contains(it.Request.Message, "rm -rf build/") {
		t.Fatalf("the permission as the inbox has it: %+v", it)
	}
	if qs := it.Request.Questions; len(qs) != 1 || len(qs[0].Options) != 2 || qs[0].Options[0].ID != "allow-1" {
		t.Fatalf("its options: %+v", it.Request.Questions)
	}
	cl, _, err := inbox.Open(ctx, inbox.Options{}, it.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	done := ahp.InputCompleted{RequestID: it.Request.ID, Response: question.Accept,
		Answers: map[string]ahp.Answer{"option": {State: ahp.Submitted, Value: &ahp.Value{Kind: ahp.ValueSelected, Selected: "reject-1"}}}}
	if err := inbox.Complete(ctx, cl, done); err != nil {
		t.Fatal(err)
	}
	var v any
	for ok := true; ok; {
		if v, ok = s.Next(ctx); !ok {
			t.Fatal("no answer came")
		}
		if p, isPresence := v.(Presence); isPresence && p.Who == cl.ID() && !p.Inbox {
			t.Fatalf("the inbox's coming is not marked as the inbox's (the screen would announce it): %+v", p)
		}
		_, isAnswer := v.(Answer)
		ok = !isAnswer
	}
	ans := v.(Answer)
	if !ans.Inbox || ans.Q != q || ans.Out.Action != question.Accept || ans.Out.Option != "reject-1" {
		t.Fatalf("the share handed the screen %+v", v)
	}
	c.Answer(ans.Q, ans.Out)
	if len(a.out) != 1 || a.out[0].Option != "reject-1" {
		t.Fatalf("the agent heard %+v", a.out)
	}
}
