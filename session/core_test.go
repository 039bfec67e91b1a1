package session

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// wire records what a source would send the agent for each outcome the
// core hands it (the reply as Outcome.Reply shapes it); the core's only
// seam.
type wire struct{ sent []string }

func (w *wire) Answer(q *question.Question, out question.Outcome) bool {
	out = out.Reply(q.Kind)
	if q.Kind == question.Permission {
		opt := ""
		if out.Action == question.Accept {
			opt = out.Option
		}
		w.sent = append(w.sent, "perm "+opt)
		return true
	}
	b, _ := json.Marshal(out.Content)
	w.sent = append(w.sent, string(out.Action)+" "+string(b))
	return true
}

func form(t *testing.T, id uint64, src string) question.Asked {
	t.Helper()
	s, err := schema.ParseSchema([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return question.Asked{Q: &question.Question{ID: id, Kind: question.Form, Message: "Name?", Schema: s}}
}

func url(id uint64, eid, u string) question.Asked {
	return question.Asked{Q: &question.Question{ID: id, Kind: question.URL, ElicitationID: eid, URL: u, Report: urlcheck.Analyze(u)}}
}

func perm(id uint64) question.Asked {
	return question.Asked{Q: &question.Question{ID: id, Kind: question.Permission, From: question.From{ToolCall: "t1", Tool: "rm -rf ~"},
		Tool: &question.Tool{ID: "t1", Title: "rm -rf ~"}, Options: []question.Option{
			{ID: "yes", Name: "Allow", Kind: "allow_once"}, {ID: "no", Name: "Reject", Kind: "reject_once"}}}}
}

const nameSchema = `{"type":"object","properties":{"name":{"type":"string","default":"Ada"},"pin":{"type":"string","title":"Password"}},"required":["name"]}`

func TestNoPersonPolicy(t *testing.T) {
	tests := []struct {
		name string
		pol  Policy
		ev   func(t *testing.T) question.Asked
		want string
	}{
		{"form cancelled without answers", Policy{}, func(t *testing.T) question.Asked { return form(t, 1, nameSchema) }, `cancel null`},
		{"form cancelled when answers do not fit", Policy{Answers: map[string]json.RawMessage{"name": []byte(`7`)}}, func(t *testing.T) question.Asked { return form(t, 1, nameSchema) }, `cancel null`},
		{"form declined with --decline", Policy{Decline: true}, func(t *testing.T) question.Asked { return form(t, 1, nameSchema) }, `decline null`},
		{"form with --accept-defaults", Policy{AcceptDefaults: true}, func(t *testing.T) question.Asked { return form(t, 1, nameSchema) }, `accept {"name":"Ada"}`},
		{"form with --answers", Policy{Answers: map[string]json.RawMessage{"name": []byte(`"Bob"`)}}, func(t *testing.T) question.Asked { return form(t, 1, nameSchema) }, `accept {"name":"Bob"}`},
		{"url cancelled", Policy{}, func(*testing.T) question.Asked { return url(1, "e1", "https://example.com/") }, `cancel null`},
		{"url declined with --decline", Policy{Decline: true}, func(*testing.T) question.Asked { return url(1, "e1", "https://example.com/") }, `decline null`},
		{"permission rejected", Policy{}, func(*testing.T) question.Asked { return perm(1) }, `perm no`},
		{"permission approved", Policy{Approve: true}, func(*testing.T) question.Asked { return perm(1) }, `perm yes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &wire{}
			c := New(w, tt.pol, nil)
			ch := c.Apply(tt.ev(t))
			if len(ch.Asked) != 0 || len(c.Questions()) != 0 {
				t.Fatalf("asked a person: %+v", ch.Asked)
			}
			if len(w.sent) != 1 || w.sent[0] != tt.want {
				t.Fatalf("sent %q, want %q", w.sent, tt.want)
			}
			if len(ch.Notes) == 0 || ch.Notes[0].Level != Decision {
				t.Fatalf("no decision note: %+v", ch.Notes)
			}
		})
	}
}

func TestAnswersNeverLimited(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Person: true, Answers: map[string]json.RawMessage{}}, nil)
	for i := range 30 {
		c.Apply(form(t, uint64(i+1), nameSchema))
	}
	for _, s := range w.sent {
		if !strings.HasPrefix(s, "accept") {
			t.Fatalf("--answers form not accepted: %q", s)
		}
	}
	if len(w.sent) != 30 {
		t.Fatalf("answered %d of 30", len(w.sent))
	}
}

func TestLimitCountsWaitingNotAnswering(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Person: true, MaxWaiting: 2}, nil)
	for i := range 3 { // the front one and two waiting
		if ch := c.Apply(form(t, uint64(i+1), nameSchema)); len(ch.Asked) != 1 {
			t.Fatalf("question %d not asked", i+1)
		}
	}
	ch := c.Apply(perm(4))
	if len(ch.Asked) != 0 || len(w.sent) != 1 || w.sent[0] != "perm " {
		t.Fatalf("a fourth question was not refused: asked %d, sent %q", len(ch.Asked), w.sent)
	}
	// A form over the limit is cancelled (nobody saw it), saying why.
	ch = c.Apply(form(t, 6, nameSchema))
	if len(ch.Asked) != 0 || len(w.sent) != 2 || w.sent[1] != "cancel null" || !strings.Contains(ch.Notes[0].Text, "2 questions were already waiting") {
		t.Fatalf("a form over the limit: sent %q, notes %+v", w.sent, ch.Notes)
	}
	// Answering the front one makes room again.
	c.Answer(c.Front(), question.Outcome{Action: question.Decline})
	if ch := c.Apply(perm(5)); len(ch.Asked) != 1 {
		t.Fatal("no room after an answer")
	}
}

func TestDecisionNotesMaskSecrets(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Person: true}, nil)
	q := c.Apply(form(t, 1, nameSchema)).Asked[0]
	ch := c.Answer(q, question.Outcome{Action: question.Accept, Content: map[string]any{"name": "Ada", "pin": "hunter2"}})
	text := ch.Notes[0].Text
	if strings.Contains(text, "hunter2") || !strings.Contains(text, "Password •••") || !strings.Contains(text, `name "Ada"`) {
		t.Fatalf("decision note %q", text)
	}
}

func TestWithdrawnQuestion(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Person: true}, nil)
	q := c.Apply(perm(7)).Asked[0]
	ch := c.Apply(question.Withdrawn{ID: 7, Reason: "cancelled by the agent"})
	if len(ch.Closed) != 1 || ch.Closed[0].Q != q || len(c.Questions()) != 0 {
		t.Fatalf("not closed: %+v", ch)
	}
	ch = c.Answer(q, question.Outcome{Action: question.Accept, Option: "yes"})
	if len(w.sent) != 0 || !strings.Contains(ch.Notes[0].Text, "already closed") {
		t.Fatalf("answered a withdrawn question: %q %+v", w.sent, ch.Notes)
	}
}

func TestLegacyRetry(t *testing.T) {
	for _, auto := range []bool{false, true} {
		w := &wire{}
		now := time.Unix(1e9, 0)
		c := New(w, Policy{Person: true, AutoRetry: auto}, func() time.Time { return now })
		c.Prompted("do it")
		ch := c.Apply(question.URLsNeeded{Qs: []*question.Question{url(0, "e1", "https://example.com/a").Q}})
		q := ch.Asked[0]
		if q.ID != 0 {
			t.Fatal("legacy URL not marked")
		}
		c.Answer(q, question.Outcome{Action: question.Accept})
		if len(w.sent) != 0 {
			t.Fatalf("a legacy URL answered the agent: %q", w.sent)
		}
		ch = c.Apply(question.FlowComplete{ElicitationID: "e1"})
		if auto && ch.Send != "do it" || !auto && ch.Retry != "do it" {
			t.Fatalf("auto=%v: %+v", auto, ch)
		}
	}
}

// elicitation/complete can come while the URL's consent is still up: the
// browser is still starting (a sign-in quicker than its opener), or the
// user opened the URL by hand. Accepted then, the flow is complete at
// once, and a -32042 prompt is offered again; nothing stays pending.
func TestFlowCompleteBeforeOpened(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Person: true}, nil)
	c.Prompted("do it")
	legacy := c.Apply(question.URLsNeeded{Qs: []*question.Question{url(0, "e1", "https://example.com/a").Q}}).Asked[0]
	if ch := c.Apply(question.FlowComplete{ElicitationID: "e1"}); ch.Retry != "" || len(ch.Notes) != 0 {
		t.Fatalf("completed before anything was opened: %+v", ch)
	}
	ch := c.Answer(legacy, question.Outcome{Action: question.Accept})
	if ch.Retry != "do it" || len(c.Flows()) != 0 {
		t.Fatalf("the flow completed early still waits: retry %q, %d pending, notes %+v", ch.Retry, len(c.Flows()), ch.Notes)
	}

	q := c.Apply(url(5, "e2", "https://example.com/b")).Asked[0]
	c.Apply(question.FlowComplete{ElicitationID: "e2"})
	c.Answer(q, question.Outcome{Action: question.Accept})
	if len(c.Flows()) != 0 || len(w.sent) != 1 {
		t.Fatalf("%d flows pending, sent %q", len(c.Flows()), w.sent)
	}

	// Declined after its completion: nothing is kept for it.
	q = c.Apply(url(6, "e3", "https://example.com/c")).Asked[0]
	c.Apply(question.FlowComplete{ElicitationID: "e3"})
	c.Answer(q, question.Outcome{Action: question.Decline})
	c.Apply(url(7, "e4", "https://example.com/d"))
	c.Apply(question.FlowComplete{ElicitationID: "e4"})
	if len(c.doneEarly) != 1 || !c.doneEarly["e4"] {
		t.Fatalf("kept %v, want only e4", c.doneEarly)
	}
}

func TestManualResendDropsRetry(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Person: true}, nil)
	c.Prompted("do it")
	q := c.Apply(question.URLsNeeded{Qs: []*question.Question{url(0, "e1", "https://example.com/a").Q}}).Asked[0]
	c.Answer(q, question.Outcome{Action: question.Accept})
	c.Prompted("do it") // the user sent it again by hand
	if ch := c.Apply(question.FlowComplete{ElicitationID: "e1"}); ch.Retry != "" || ch.Send != "" {
		t.Fatalf("stale retry after a manual resend: %+v", ch)
	}
}

// Pausing is the person's standing "not now": a form that arrives
// meanwhile is cancelled, not declined (nobody said no to it).
func TestPausedCancelsElicitationsNotPermissions(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Person: true}, nil)
	c.SetPaused(true)
	c.Apply(form(t, 1, nameSchema))
	if ch := c.Apply(perm(2)); len(ch.Asked) != 1 {
		t.Fatal("a permission was not asked while questions are paused")
	}
	if len(w.sent) != 1 || w.sent[0] != "cancel null" {
		t.Fatalf("sent %q", w.sent)
	}
}
