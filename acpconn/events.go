package acpconn

import (
	"time"

	"github.com/elicit-dev/elicit/question"
)

// Event is something the agent did, as a plain value for the UI: one of
// this package's event types, or one of package question's events for
// its questions (question.Asked, Withdrawn, FlowComplete, URLsNeeded,
// Gone, ToolTitle), which the session core reads from the same ordered
// stream as they are. Every string in an event that came from the agent
// has been through the sanitizer (internal/sanitize) and may be drawn as
// is, except ids and URLs: those are kept exactly as the agent sent them,
// because they go back to it (set_mode, set_config_option, a permission's
// option, an elicitation's scope). To show an id, pass it through
// sanitize.Line.
type Event any

// Role says whose text a MessageChunk carries.
type Role int

// The roles of streamed text.
const (
	RoleAgent Role = iota
	RoleThought
	RoleUser
)

// MessageChunk is a piece of streamed text: the agent's reply, its
// thoughts, or the user's message replayed by the agent.
type MessageChunk struct {
	Role Role
	Text string
	// Faithful is the text for a pipe (-p): only escapes and C0/C1
	// controls other than newline, tab and CR removed, so CR, bidi marks
	// and zero-width characters stay as the agent wrote them. It is never
	// drawn on a terminal; "" means the same as Text.
	Faithful string
	// MessageID is the agent's id of the message the chunk belongs to
	// ("" when it sends none): a new id starts a new message.
	MessageID string
}

// ToolCall is a tool call or an update to one. On an update, empty fields
// mean "unchanged"; Content and Locations replace the old ones when set.
type ToolCall struct {
	ID        string // exact, not sanitized: sanitize.Line to show it
	New       bool   // a tool_call rather than a tool_call_update
	Title     string
	Kind      string
	Status    string
	Locations []string
	Content   []string // text, diffs and terminals summarised as text
	// Diffs are the call's file edits in full, for a diff view; each is
	// also summarised in Content. They replace the old ones when set.
	Diffs []Diff
	// Terminals are the ids of the terminals whose output the call shows
	// (terminal/create, or the agents' _meta terminal extension); see
	// TerminalOutput.
	Terminals []string
	// Elapsed is how long the agent says the call has been running (its
	// progress beats, Claude Code's elapsedTimeSeconds); 0 when this update
	// says nothing of it.
	Elapsed time.Duration

	meta *termMeta // the _meta terminal extension, turned into TerminalOutput events
}

// Diff is a file edit of a tool call: the path and the whole text before
// (empty for a new file) and after. Sanitized like every event string,
// except that a CRLF line ending is kept, so a change of line endings
// shows. It is question.Diff, so a permission's tool call carries the
// same value.
type Diff = question.Diff

// PlanEntry is one line of the agent's plan.
type PlanEntry struct {
	Content, Priority, Status string
}

// Plan replaces the agent's plan.
type Plan struct{ Entries []PlanEntry }

// Command is a slash command the agent offers; Hint describes the input
// it takes after its name ("" when it takes none).
type Command struct{ Name, Description, Hint string }

// Commands replaces the agent's available commands.
type Commands struct{ List []Command }

// Mode is a session mode the agent offers. ID is exact (see Event).
type Mode struct{ ID, Name, Description string }

// ModeChanged says the session's current mode changed. ID is exact.
type ModeChanged struct{ ID string }

// ConfigOption is one session configuration option (a select or a switch).
// ID, Current and the Values' IDs are exact (see Event). Category is the
// agent's grouping ("mode", "model", "thought_level" or its own), "" when it
// gave none.
type ConfigOption struct {
	ID, Name, Description string
	Category              string
	Current               string   // the current value id, or "true"/"false"
	Values                []Choice // the choices of a select
	Boolean               bool
}

// Choice is one value of a select configuration option (or a model); ID
// is exact.
type Choice struct{ ID, Name, Description string }

// ConfigOptions replaces the session's configuration options.
type ConfigOptions struct{ Options []ConfigOption }

// SessionInfo carries the session's title.
type SessionInfo struct{ Title string }

// Usage is the context window and cost of the session so far.
type Usage struct {
	Used, Size int
	Cost       string
}

// UnknownUpdate is a session/update of a kind this client does not know.
// It is shown, never dropped silently.
type UnknownUpdate struct{ Kind string }

// Notice is something the user should know that is not agent output, such
// as an elicitation declined by the rate limiter or a refused request.
type Notice struct {
	Text  string
	Error bool
}

// AgentExited says the agent process ended (or the connection to it did).
// It is the connection's last event, right after question.Gone.
type AgentExited struct {
	Exit   ExitInfo
	Reason string   // why the connection ended, when the client knows better than the exit status
	Stderr []string // the last lines of the agent's stderr
}
