package session

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question"
)

type seen struct{ log []string }

func (s *seen) Asked(q *question.Question) { s.log = append(s.log, "asked "+q.Kind.String()) }
func (s *seen) Answered(q *question.Question, out question.Outcome) {
	s.log = append(s.log, "answered "+string(out.Action)+" by "+out.By.String())
}
func (s *seen) Closed(q *question.Question, reason string) { s.log = append(s.log, "closed: "+reason) }

// The observer hears each question a person is asked, its answer (from
// anyone) and its closing, whichever front end drives the core.
func TestObserver(t *testing.T) {
	obs := &seen{}
	c := New(&wire{}, Policy{Person: true}, nil)
	c.SetObserver(obs)
	c.Apply(form(t, 1, nameSchema))
	q := c.Front()
	c.Answer(q, question.Outcome{Action: question.Accept, Content: map[string]any{"name": "Bob"}, By: question.ByRemote})
	c.Apply(form(t, 2, nameSchema))
	c.Apply(question.Withdrawn{ID: 2, Reason: "withdrawn by the agent"})
	c.Apply(url(3, "e3", "https://example.com/"))
	c.Apply(question.Gone{})
	want := "asked form|answered accept by remote client|asked form|closed: withdrawn by the agent|asked URL|closed: the agent exited"
	if got := strings.Join(obs.log, "|"); got != want {
		t.Fatalf("observer heard\n%s\nwant\n%s", got, want)
	}
}

// With people only on remote clients (serve -p), a permission is answered
// by the rule while forms still wait for a person.
func TestPermissionsByRule(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Person: true, PermissionsByRule: true}, nil)
	c.Apply(perm(1))
	c.Apply(form(t, 2, nameSchema))
	if len(w.sent) != 1 || w.sent[0] != "perm no" || len(c.Questions()) != 1 || c.Front().Kind != question.Form {
		t.Fatalf("sent %q, waiting %d", w.sent, len(c.Questions()))
	}
}
