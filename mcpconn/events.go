package mcpconn

import "encoding/json"

// Event is something the server did, as a plain value: one of this
// package's event types, or one of package question's events for its
// elicitations (question.Asked, Withdrawn, FlowComplete, Gone), which the
// session core reads from the same ordered stream as they are. Every
// string in an event that came from the server went through the sanitizer
// (internal/sanitize) and may be drawn as is, except ids and URLs, which
// are kept exactly as sent (the consent screen escapes a URL itself).
//
// An elicitation/create (or a 2026-07-28 input request) comes as a
// question.Asked: a form (Schema, in the server's property order) or a URL
// (URL and its Report). Answer it with Conn.Answer. Its From.ToolCall
// names the tool the elicitation arrived during, when exactly one call was
// running, and From.Tool its title.
type Event any

// Progress is a notifications/progress for a call made with a progress
// token. Total is 0 when the server does not know it.
type Progress struct {
	Token    string
	Progress float64
	Total    float64
	Message  string
}

// Log is a notifications/message from the server.
type Log struct{ Level, Logger, Text string }

// ListChanged says the server's list of tools, prompts or resources
// changed ("tools", "prompts", "resources").
type ListChanged struct{ What string }

// Notice is something the user should know that the server did not say
// itself, such as a request elicit refused and why.
type Notice struct {
	Text  string
	Error bool
}

// Exited is the connection's last event, right after question.Gone: the
// server exited or the connection to it ended.
type Exited struct {
	Reason string   // why, in a few words
	Stderr []string // the last lines of a stdio server's stderr
}

// logText is a notifications/message's data as text: a string as is,
// anything else as JSON.
func logText(data any) string {
	if s, ok := data.(string); ok {
		return s
	}
	b, err := json.Marshal(data)
	if err != nil {
		return "?"
	}
	return string(b)
}
