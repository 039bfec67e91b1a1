package hooks

import (
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/question"
)

// Input is what a hook reads on stdin, in Claude Code's field names.
// The runner sets HookEventName, and MCPServerName when it is empty.
type Input struct {
	SessionID     string `json:"session_id"`
	Cwd           string `json:"cwd"`
	HookEventName string `json:"hook_event_name"`
	// MCPServerName is the agent's name unless the caller knows the server.
	MCPServerName   string          `json:"mcp_server_name"`
	Message         string          `json:"message"`
	Mode            string          `json:"mode"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitation_id,omitempty"`
	RequestedSchema json.RawMessage `json:"requested_schema,omitempty"`
	// Action and Content are the user's answer, for ElicitationResult.
	Action  question.Action `json:"action,omitempty"`
	Content json.RawMessage `json:"content,omitempty"`
	// Agent is elicit's name for the agent (what `agent` globs match).
	Agent string `json:"agent"`
	// ToolCallID is the tool call the question belongs to, if any.
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// Decision says what the hooks decided.
type Decision int

// The decisions.
const (
	// Pass: no hook answered; the question goes on as if there were none.
	Pass Decision = iota
	// Answer: a hook answered with Action (and Content for accept).
	Answer
	// Declined: a hook exited with status 2 (or said "block"): decline,
	// and show Reason.
	Declined
)

// String names the decision for logs.
func (d Decision) String() string {
	switch d {
	case Answer:
		return "answer"
	case Declined:
		return "declined"
	}
	return "pass"
}

// Result is what the hooks decided for one question.
type Result struct {
	Decision Decision
	// Action is the answer's action: for Declined it is Decline.
	Action question.Action
	// Content is the answer's content for a form-mode accept: a JSON object
	// that the caller must validate against the schema like any answer. It
	// is nil for every other answer.
	Content json.RawMessage
	// Reason is what a declining hook wrote on stderr (or its "reason").
	Reason string
	// Hook is the command of the hook that decided, for display.
	Hook string
}

// Error is one hook that failed: it timed out, exited with a status other
// than 0 or 2, printed something that is not a valid answer, or answered
// what a hook may not. The question goes on without it.
type Error struct {
	// Hook is the command, quoted for display.
	Hook string
	// Event is the hook's event.
	Event config.Event
	// Reason is short: "timed out after 10s", "exit status 1", ...
	Reason string
	// Stderr is the end of what the hook wrote on stderr, if anything.
	Stderr string
}

// Error says which hook failed and why, then its stderr.
func (e *Error) Error() string {
	s := fmt.Sprintf("%s hook %s: %s", e.Event, e.Hook, e.Reason)
	if e.Stderr != "" {
		s += ": " + e.Stderr
	}
	return s
}
