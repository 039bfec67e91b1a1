package share

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/session"
)

// TestRememberedAnswerOutlivesTheDefault: a shared form prefilled with
// last time's answer (a select: "pending", the schema's default "active")
// keeps it; the default the host published with the request is no other
// client's draft, so it neither replaces the answer nor makes the form
// hold something the user typed (then Ctrl+X asked "discard what you
// typed?" of a form nobody touched).
func TestRememberedAnswerOutlivesTheDefault(t *testing.T) {
	h := ahp.NewHost(ahp.HostOptions{})
	defer h.Close()
	s, err := New(h, "desk", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := session.New(&agent{}, session.Policy{Person: true}, time.Now)
	c.SetObserver(s)
	sch, err := schema.ParseSchema([]byte(`{"type":"object","properties":{
		"status":{"type":"string","enum":["active","inactive","pending"],"default":"active"},
		"name":{"type":"string","default":"John Doe"}},"required":["status"]}`))
	if err != nil {
		t.Fatal(err)
	}
	c.Settle(context.Background(), c.Apply(question.Asked{Q: &question.Question{ID: 7, Kind: question.Form, Message: "Profile", Schema: sch}}))
	q := c.Front()
	if q == nil {
		t.Fatal("no question")
	}
	f := forms.NewModel(sch, forms.Header{}, forms.Options{Grace: -1,
		Prefill: map[string]json.RawMessage{"status": json.RawMessage(`"pending"`), "name": json.RawMessage(`"Ada"`)}})
	if s.Form(q, f) == nil {
		t.Fatal("the form is not shared")
	}
	if got := f.Draft(); got["status"] != "pending" || got["name"] != "Ada" {
		t.Errorf("the shared form holds %v, want last time's status pending and name Ada", got)
	}
	if f.Dirty() {
		t.Error("an untouched shared form says the user typed something")
	}
}
