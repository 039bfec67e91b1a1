package share

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/session"
)

// agent records what the core sent the agent.
type agent struct {
	mu      sync.Mutex
	actions []string
}

func (a *agent) Answer(q *question.Question, out question.Outcome) bool {
	if q.Kind == question.Permission {
		return true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.actions = append(a.actions, string(out.Action))
	return true
}

// shared starts a core whose one form question is mirrored to a host.
func shared(t *testing.T) (*session.Core, *Share, *ahp.Host, *agent, *question.Question) {
	t.Helper()
	h := ahp.NewHost(ahp.HostOptions{})
	s, err := New(h, "desk", Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	a := &agent{}
	c := session.New(a, session.Policy{Person: true}, time.Now)
	c.SetObserver(s)
	sch, err := schema.ParseSchema([]byte(`{"type":"object","properties":{"name":{"type":"string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	c.Settle(context.Background(), c.Apply(question.Asked{Q: &question.Question{ID: 7, Kind: question.Form, Message: "Who?", Schema: sch}}))
	q := c.Front()
	if q == nil || openCount(h) != 1 {
		t.Fatalf("the question was not shared: front %v, open %d", q, openCount(h))
	}
	return c, s, h, a, q
}

// TestRemoteWinnerReachesTheAgent: another client completes first; the
// serving terminal's answer, given a moment later (before the remote
// completion reached its loop), must not be what the agent hears.
func TestRemoteWinnerReachesTheAgent(t *testing.T) {
	c, _, h, a, q := shared(t)
	id := openID(h)
	if err := join(t, h, "laptop").Dispatch(ahp.InputCompleted{RequestID: id, Response: question.Decline}); err != nil {
		t.Fatal(err)
	}
	c.Answer(q, question.Outcome{Action: question.Accept, Content: map[string]any{"name": "Ada"}, By: question.ByPerson})
	if len(a.actions) != 1 || a.actions[0] != "decline" {
		t.Fatalf("the agent heard %v; the host's winner was laptop's decline", a.actions)
	}
	if w, _ := h.Winner(id); w.By.ClientID != "laptop" || w.Response != question.Decline {
		t.Errorf("the host's winner changed: %+v", w)
	}
}

// TestLocalWinnerIsTheHosts: the serving terminal answers first; the host
// records its completion, and a later one from another client is refused.
func TestLocalWinnerIsTheHosts(t *testing.T) {
	c, _, h, a, q := shared(t)
	id := openID(h)
	c.Answer(q, question.Outcome{Action: question.Accept, Content: map[string]any{"name": "Ada"}, By: question.ByPerson})
	if len(a.actions) != 1 || a.actions[0] != "accept" {
		t.Fatalf("the agent heard %v", a.actions)
	}
	if w, ok := h.Winner(id); !ok || w.By.ClientID != "desk" || w.Response != question.Accept {
		t.Errorf("the host's winner: %+v %v", w, ok)
	}
	if err := join(t, h, "laptop").Dispatch(ahp.InputCompleted{RequestID: id, Response: question.Decline}); err == nil {
		t.Error("a second completion was taken")
	}
}

// Issue 34, item 8: drafts another client floods one field with wait for
// the serving terminal as one, the latest: the screen is not handed a
// thousand updates, and the share holds one entry for the field.
func TestDraftsToOneFieldCoalesce(t *testing.T) {
	_, s, h, _, _ := shared(t)
	id := openID(h)
	laptop := join(t, h, "laptop")
	const n = 1000
	for i := range n {
		a := &ahp.Answer{State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueText, Text: fmt.Sprint(i)}}
		if err := laptop.Dispatch(ahp.InputAnswerChanged{RequestID: id, QuestionID: "name", Answer: a}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	got := 0
	for {
		v, ok := s.Next(ctx)
		if !ok {
			t.Fatalf("the last draft never came; %d came", got)
		}
		got++
		if d := v.(Draft); d.Answer.Value.Text == fmt.Sprint(n-1) {
			break
		}
	}
	if got > n/10 {
		t.Fatalf("the screen was handed %d drafts of one field for %d sent", got, n)
	}
}

func join(t *testing.T, h *ahp.Host, id string) *ahp.Local {
	t.Helper()
	l, err := h.Join(id)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func openCount(h *ahp.Host) int { in := h.Inputs(); return len(in.OpenRequests()) }

func openID(h *ahp.Host) string { in := h.Inputs(); return in.OpenRequests()[0].ID }
