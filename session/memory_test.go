package session

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/question"
)

// graceRemembered is a history in which agent demo answered name "Grace"
// to the form req asks.
func graceRemembered(t *testing.T) (*history.Store, question.Asked) {
	h, err := history.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	req := form(t, 1, nameSchema)
	values := map[string]json.RawMessage{"name": json.RawMessage(`"Grace"`)}
	if err := h.RememberAnswers("demo", FormFingerprint(req.Q.Schema), values, func(string) bool { return false }); err != nil {
		t.Fatal(err)
	}
	return h, req
}

// TestPrepareReadsHistoryOnlyForAPerson checks that a form a rule answers
// (-p, --answers, --accept-defaults) costs no history read, and that a form
// shown to a person gets what was answered last time.
func TestPrepareReadsHistoryOnlyForAPerson(t *testing.T) {
	h, req := graceRemembered(t)
	for _, tc := range []struct {
		name    string
		pol     Policy
		prefill bool
	}{
		{"a person answers", Policy{Person: true}, true},
		{"a person, but --answers answers", Policy{Person: true, Answers: map[string]json.RawMessage{}}, false},
		{"-p --accept-defaults", Policy{AcceptDefaults: true}, false},
		{"-p cancels", Policy{}, false},
	} {
		c := New(&wire{}, tc.pol, nil)
		c.SetMemory(Memory{History: h, Agent: "demo"})
		p := c.Prepare(context.Background(), req.Q)
		if got := string(p.Prefill["name"]); (got == `"Grace"`) != tc.prefill {
			t.Errorf("%s: prefill %q, want it: %v", tc.name, got, tc.prefill)
		}
	}
}

// A core that holds the questions of many agents (the inbox) reads and
// keeps each form's history under the agent that asks it
// (question.From.Agent), as that agent's own session does.
func TestHistoryIsKeptUnderTheAskingAgent(t *testing.T) {
	h, req := graceRemembered(t)
	c := New(&wire{}, Policy{Person: true}, nil)
	c.SetMemory(Memory{History: h, Agent: "inbox"})
	if p := c.Prepare(context.Background(), req.Q); p.Prefill != nil {
		t.Fatalf("the inbox's own key has a prefill: %s", p.Prefill)
	}
	req.Q.From.Agent = "demo"
	if p := c.Prepare(context.Background(), req.Q); string(p.Prefill["name"]) != `"Grace"` {
		t.Fatalf("the asking agent's answers were not read: %s", p.Prefill)
	}
}
