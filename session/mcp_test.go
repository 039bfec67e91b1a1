package session

import (
	"encoding/json"
	"testing"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// mcpForm is a form as mcpconn asks it: scoped to the tool call it
// arrived during, by the call's name.
func mcpForm(t *testing.T) question.Asked {
	s, err := schema.ParseSchema([]byte(nameSchema))
	if err != nil {
		t.Fatal(err)
	}
	return question.Asked{Q: &question.Question{ID: 4, Kind: question.Form, Message: "Name?", Schema: s, From: question.From{ToolCall: "signup"}}}
}

// TestMCPElicitationTakesTheSameRules checks that an MCP form meets the
// no-person policy and the tool title exactly as an ACP one does.
func TestMCPElicitationTakesTheSameRules(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Answers: map[string]json.RawMessage{"name": []byte(`"Bob"`)}}, nil)
	c.Apply(question.ToolTitle{ID: "signup", Title: "Sign up"})
	ev := mcpForm(t)
	ch := c.Apply(ev)
	if len(w.sent) != 1 || w.sent[0] != `accept {"name":"Bob"}` {
		t.Errorf("sent %q", w.sent)
	}
	if len(ch.Notes) == 0 {
		t.Error("no note of the answer")
	}
	if ev.Q.From.Tool != "Sign up" || c.ToolTitle(ev.Q.From.ToolCall) != "Sign up" {
		t.Errorf("tool title %q, %q", ev.Q.From.Tool, c.ToolTitle(ev.Q.From.ToolCall))
	}
	if ch := c.Apply(struct{ Token string }{"p"}); len(ch.Notes)+len(ch.Asked)+len(ch.Closed) != 0 {
		t.Errorf("progress changed the core: %+v", ch)
	}
}

// TestMCPURLRequiredOffersTheCallAgain checks the -32042 path: the URLs
// are asked, and once complete the call's key comes back to retry (or to
// send, with AutoRetry).
func TestMCPURLRequiredOffersTheCallAgain(t *testing.T) {
	for _, auto := range []bool{false, true} {
		c := New(&wire{}, Policy{Person: true, AutoRetry: auto}, nil)
		c.Prompted("call 1")
		u := "https://example.com/pre"
		ch := c.Apply(question.URLsNeeded{Qs: []*question.Question{{Kind: question.URL, ElicitationID: "pre1", URL: u, Report: urlcheck.Analyze(u)}}})
		if len(ch.Asked) != 1 || ch.Asked[0].ID != 0 {
			t.Fatalf("asked %+v", ch.Asked)
		}
		c.Answer(ch.Asked[0], question.Outcome{Action: question.Accept})
		if f := c.Flows(); len(f) != 1 || !f[0].Legacy {
			t.Fatalf("flows %+v", f)
		}
		ch = c.Apply(question.FlowComplete{ElicitationID: "pre1"})
		if auto && ch.Send != "call 1" || !auto && ch.Retry != "call 1" {
			t.Errorf("auto %v: retry %q send %q", auto, ch.Retry, ch.Send)
		}
	}
}

// TestApproveURLsQueuesForTheFrontEnd checks that --approve-urls hands a
// URL to the front end when nobody is asked, where it is otherwise
// cancelled at once.
func TestApproveURLsQueuesForTheFrontEnd(t *testing.T) {
	u := "https://example.com/x"
	for _, approve := range []bool{false, true} {
		w := &wire{}
		c := New(w, Policy{ApproveURLs: approve}, nil)
		ch := c.Apply(question.Asked{Q: &question.Question{ID: 1, Kind: question.URL, ElicitationID: "e", URL: u, Report: urlcheck.Analyze(u)}})
		if approve && (len(ch.Asked) != 1 || len(w.sent) != 0) || !approve && (len(ch.Asked) != 0 || len(w.sent) != 1 || w.sent[0] != "cancel null") {
			t.Errorf("approve %v: asked %d, sent %q", approve, len(ch.Asked), w.sent)
		}
	}
}
