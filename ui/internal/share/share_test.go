package share

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ahp"
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
	s := New(h, "desk")
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
	if err := h.Dispatch(ahp.Origin{ClientID: "laptop"}, ahp.InputCompleted{RequestID: id, Response: question.Decline}); err != nil {
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
	if err := h.Dispatch(ahp.Origin{ClientID: "laptop"}, ahp.InputCompleted{RequestID: id, Response: question.Decline}); err == nil {
		t.Error("a second completion was taken")
	}
}

func openCount(h *ahp.Host) int { in := h.Inputs(); return len(in.OpenRequests()) }

func openID(h *ahp.Host) string { in := h.Inputs(); return in.OpenRequests()[0].ID }
