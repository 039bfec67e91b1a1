package session

import (
	"encoding/json"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

func mcpForm(t *testing.T) mcpconn.Elicitation {
	s, err := schema.ParseSchema([]byte(nameSchema))
	if err != nil {
		t.Fatal(err)
	}
	return mcpconn.Elicitation{ID: 4, Mode: "form", Message: "Name?", Schema: s, Call: "signup"}
}

// TestMCPElicitationTakesTheSameRules checks that an MCP form meets the
// no-person policy and the tool title exactly as an ACP one does.
func TestMCPElicitationTakesTheSameRules(t *testing.T) {
	w := &wire{}
	c := New(w, Policy{Answers: map[string]json.RawMessage{"name": []byte(`"Bob"`)}}, nil)
	c.Apply(acpconn.ToolCall{ID: "signup", Title: "Sign up", New: true})
	ev, ok := FromMCP(mcpForm(t))
	if !ok {
		t.Fatal("an elicitation was not taken")
	}
	ch := c.Apply(ev)
	if len(w.sent) != 1 || w.sent[0] != `accept {"name":"Bob"}` {
		t.Errorf("sent %q", w.sent)
	}
	if len(ch.Notes) == 0 {
		t.Error("no note of the answer")
	}
	if q := (&Question{Elicit: elicitationFromMCP(mcpForm(t))}); c.ToolTitle(q.Elicit.Scope.ToolCallID) != "Sign up" {
		t.Errorf("tool title %q", c.ToolTitle(q.Elicit.Scope.ToolCallID))
	}
	if _, ok := FromMCP(mcpconn.Progress{Token: "p"}); ok {
		t.Error("progress went to the core")
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
		ch := c.Apply(URLRequiredFromMCP([]mcpconn.Elicitation{{Mode: "url", ElicitationID: "pre1", URL: u, Report: urlcheck.Analyze(u)}}))
		if len(ch.Asked) != 1 || !ch.Asked[0].Legacy {
			t.Fatalf("asked %+v", ch.Asked)
		}
		c.Answer(ch.Asked[0], question.Outcome{Action: question.Accept})
		done, _ := FromMCP(mcpconn.ElicitationComplete{ElicitationID: "pre1"})
		ch = c.Apply(done)
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
		ev, _ := FromMCP(mcpconn.Elicitation{ID: 1, Mode: "url", ElicitationID: "e", URL: u, Report: urlcheck.Analyze(u)})
		ch := c.Apply(ev)
		if approve && (len(ch.Asked) != 1 || len(w.sent) != 0) || !approve && (len(ch.Asked) != 0 || len(w.sent) != 1 || w.sent[0] != "cancel null") {
			t.Errorf("approve %v: asked %d, sent %q", approve, len(ch.Asked), w.sent)
		}
	}
}
