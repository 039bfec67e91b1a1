package demoagent

import (
	"fmt"

	acp "github.com/coder/acp-go-sdk"
)

// urlRequired is a turn's error that becomes the legacy -32042 answer
// (URLElicitationRequiredError): the prompt cannot be answered until the
// listed URL elicitations are complete. ACP dropped it in 2026-07; MCP-style
// agents still send it, so the demo shows it.
type urlRequired struct {
	elicitations []map[string]any
}

func (e *urlRequired) Error() string { return "URL elicitation required" }

// requestError is the JSON-RPC error the client receives.
func (e *urlRequired) requestError() *acp.RequestError {
	return &acp.RequestError{Code: -32042, Message: "This request requires more information.",
		Data: map[string]any{"elicitations": e.elicitations}}
}

// legacyCommand is /legacy: the first time it fails the prompt with -32042
// and a URL elicitation served on loopback; once that flow's page was
// approved, the same prompt succeeds.
func (t *turn) legacyCommand(string) error {
	if !t.a.clientCaps().url {
		return t.say(noMode("url"))
	}
	s := t.s
	s.mu.Lock()
	id := s.legacyID
	s.mu.Unlock()
	if id != "" && t.a.approvedFlow(id) {
		s.mu.Lock()
		s.legacyID = ""
		s.mu.Unlock()
		return t.say("## Authorized\n\nThe flow `" + id + "` is complete, so this time the prompt gets an answer. " +
			"Your client retried it after the agent's `elicitation/complete`.\n")
	}
	srv, err := t.a.urlServer()
	if err != nil {
		return t.sayNow(fmt.Sprintf("I could not start the local page: %v\n", err))
	}
	id, page := srv.newFlow("Authorize the demo agent, then your client retries the prompt.", true)
	s.mu.Lock()
	s.legacyID = id
	s.mu.Unlock()
	return &urlRequired{elicitations: []map[string]any{{
		"mode": "url", "elicitationId": id, "url": page,
		"message": "Authorize the demo agent: this prompt needs it before it can be answered.",
	}}}
}

// approvedFlow reports whether the flow's page was approved.
func (a *agent) approvedFlow(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.approved[id]
}
