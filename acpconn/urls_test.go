package acpconn

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

func init() {
	scripts["lookalike-url"] = func(a *scripted) {
		p := a.prompt()
		resp := a.request("elicitation/create", map[string]any{"sessionId": "s1", "mode": "url", "message": "Sign in",
			"elicitationId": "e1", "url": "https://acrne-intranet.corp/login"})
		b, _ := json.Marshal(resp["result"])
		a.say(string(b))
		a.endTurn(p, "end_turn")
	}
	scripts["message-at-cap"] = func(a *scripted) {
		p := a.prompt()
		resp := a.request("elicitation/create", map[string]any{"sessionId": "s1", "mode": "form",
			"message": strings.Repeat("x", question.MaxMessageBytes), "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}}})
		b, _ := json.Marshal(resp["result"])
		a.say(string(b))
		a.endTurn(p, "end_turn")
	}
}

// Issue 31: the URLs an agent sends are analyzed by Config.URLs, the
// user's list of well-known domains, and without it by the built-in one;
// nothing is read from package state.
func TestURLsAnalyzedByTheConfigsAnalyzer(t *testing.T) {
	for _, tc := range []struct {
		name      string
		urls      *urlcheck.Analyzer
		lookalike bool
	}{
		{"with the user's domains", urlcheck.NewAnalyzer("acme-intranet.corp"), true},
		{"built-in list", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := start(t, "lookalike-url", Config{URLs: tc.urls})
			c.StartPrompt("go")
			q, _ := asked(t, c, question.URL)
			if got := q.Report.Has(urlcheck.CodeConfusable); got != tc.lookalike {
				t.Errorf("lookalike warning %v, want %v: %+v", got, tc.lookalike, q.Report.Warnings)
			}
			c.Answer(q, question.Outcome{Action: question.Decline})
			until[TurnEnded](t, c)
		})
	}
}

// A message of question.MaxMessageBytes is taken (one byte more is
// refused: TestMalformedElicitationsAreRefusedByName).
func TestMessageAtTheCapIsTaken(t *testing.T) {
	c := start(t, "message-at-cap", Config{})
	c.StartPrompt("go")
	q, _ := asked(t, c, question.Form)
	if len(q.Message) != question.MaxMessageBytes {
		t.Errorf("message of %d bytes, want %d", len(q.Message), question.MaxMessageBytes)
	}
	c.Answer(q, question.Outcome{Action: question.Cancel})
	until[TurnEnded](t, c)
}
