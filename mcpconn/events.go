package mcpconn

import (
	"encoding/json"

	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// Event is something the server did, as a plain value. Every string in
// an event that came from the server went through the sanitizer
// (internal/sanitize) and may be drawn as is, except ids and URLs, which
// are kept exactly as sent (the consent screen escapes a URL itself).
type Event interface{ event() }

// Elicitation is a valid elicitation/create (or a 2026-07-28 input
// request): a form (Schema, in the server's property order) or a URL
// (URL and its Report). Answer it with Conn.Respond(ID, …). An Elicitation
// from a -32042 error (URLRequired) has ID 0: there is no request to
// answer, only a URL to offer and a call to retry.
type Elicitation struct {
	ID            uint64
	Mode          string // "form" or "url"
	Message       string
	Schema        *schema.Schema
	RawSchema     json.RawMessage // requestedSchema as the server wrote it
	ElicitationID string          // url mode
	URL           string          // url mode, exactly as sent
	Report        urlcheck.Report // url mode
	// Call is the tool the elicitation arrived during, when exactly one
	// call was running ("" otherwise).
	Call string
}

// ElicitationComplete says the out-of-band interaction of a URL
// elicitation finished. Unknown and repeated ids are passed on too; the
// session core ignores them.
type ElicitationComplete struct{ ElicitationID string }

// ElicitationClosed says a pending elicitation ended without an answer:
// the server cancelled it (notifications/cancelled) or went away.
type ElicitationClosed struct {
	ID     uint64
	Reason string
}

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

// Exited is the connection's last event: the server exited or the
// connection to it ended.
type Exited struct {
	Reason string   // why, in a few words
	Stderr []string // the last lines of a stdio server's stderr
}

func (Elicitation) event()         {}
func (ElicitationComplete) event() {}
func (ElicitationClosed) event()   {}
func (Progress) event()            {}
func (Log) event()                 {}
func (ListChanged) event()         {}
func (Notice) event()              {}
func (Exited) event()              {}

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
