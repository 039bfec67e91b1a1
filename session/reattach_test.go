package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question"
)

// idWire records each answer with the request id it went to.
type idWire struct{ sent []string }

func (w *idWire) Answer(q *question.Question, out question.Outcome) bool {
	if q.Kind == question.Permission {
		w.sent = append(w.sent, fmt.Sprintf("%d perm %s", q.ID, out.Option))
		return true
	}
	w.sent = append(w.sent, fmt.Sprintf("%d %s", q.ID, out.Action))
	return true
}

func lost() question.Gone { return question.Gone{Lost: true} }

func withRaw(a question.Asked, raw string) question.Asked {
	a.Q.RawSchema = []byte(raw)
	a.Q.From.Session = "s1"
	return a
}

// A form open when the connection drops stays open; the agent's same
// question on the new connection is answered by it, with the new id.
func TestDetachedFormAnswersTheReask(t *testing.T) {
	old, fresh := &idWire{}, &idWire{}
	c := New(old, Policy{Person: true, Reconnects: true}, nil)
	ch := c.Apply(withRaw(form(t, 3, nameSchema), nameSchema))
	q := ch.Asked[0]
	ch = c.Apply(lost())
	if len(ch.Closed) != 0 || !c.IsDetached(q) || c.Front() != q {
		t.Fatalf("the form was closed: %+v", ch)
	}
	c.Reattach(fresh)
	ch = c.Apply(withRaw(form(t, 1, nameSchema), " "+nameSchema+"\n"))
	if len(ch.Asked) != 0 || c.IsDetached(q) || c.Front() != q {
		t.Fatalf("the re-ask was not bound to the open form: %+v", ch)
	}
	c.Answer(q, question.Outcome{Action: question.Accept, Content: map[string]any{"name": "Bob"}})
	if strings.Join(fresh.sent, ",") != "1 accept" || len(old.sent) != 0 {
		t.Errorf("sent old %v new %v", old.sent, fresh.sent)
	}
}

// An answer given while the connection is down is sent when the agent
// asks again; a question it does not ask again is closed by Expire, and
// the answer that could not be sent is shown.
func TestHeldAnswerAndExpire(t *testing.T) {
	fresh := &idWire{}
	c := New(&idWire{}, Policy{Person: true, Reconnects: true}, nil)
	p := c.Apply(perm(5)).Asked[0]
	f := c.Apply(withRaw(form(t, 6, nameSchema), nameSchema)).Asked[0]
	c.Apply(lost())
	ch := c.Answer(p, question.Outcome{Action: question.Accept, Option: "no"})
	if len(ch.Notes) == 0 || !strings.Contains(ch.Notes[0].Text, "kept") {
		t.Errorf("notes %+v", ch.Notes)
	}
	c.Reattach(fresh)
	c.Apply(perm(9))
	if strings.Join(fresh.sent, ",") != "9 perm no" {
		t.Fatalf("sent %v", fresh.sent)
	}
	ch = c.Expire("the agent did not ask again")
	if len(ch.Closed) != 1 || ch.Closed[0].Q != f || len(c.Questions()) != 0 {
		t.Errorf("expire: %+v", ch)
	}
}

// Without Reconnects (or for an exit that is not a lost connection) the
// questions close as before.
func TestExitClosesWithoutReconnect(t *testing.T) {
	for _, tc := range []struct {
		pol Policy
		ev  question.Gone
	}{
		{Policy{Person: true}, lost()},
		{Policy{Person: true, Reconnects: true}, question.Gone{}},
	} {
		c := New(&idWire{}, tc.pol, nil)
		c.Apply(perm(1))
		if ch := c.Apply(tc.ev); len(ch.Closed) != 1 {
			t.Errorf("%+v: closed %d", tc.pol, len(ch.Closed))
		}
	}
}

// A different form after the reconnect is a new question; the detached
// one is not bound to it.
func TestDifferentFormIsNewQuestion(t *testing.T) {
	c := New(&idWire{}, Policy{Person: true, Reconnects: true}, nil)
	q := c.Apply(withRaw(form(t, 1, nameSchema), nameSchema)).Asked[0]
	c.Apply(lost())
	c.Reattach(&idWire{})
	other := `{"type":"object","properties":{"city":{"type":"string"}}}`
	if ch := c.Apply(withRaw(form(t, 2, other), other)); len(ch.Asked) != 1 || !c.IsDetached(q) {
		t.Errorf("bound a different form: %+v", ch)
	}
}
