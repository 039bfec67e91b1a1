package ahp

import (
	"encoding/json"
	"time"
)

// What elicit's host adds under _meta.elicit, which other clients ignore:
// of a request, what kind of question it is and when it was asked; of the
// session, for same-user connections only (the inbox), which agent runs
// where.

// Request kinds in RequestMeta.Kind, as `elicit inbox list` names them.
const (
	MetaForm       = "form"
	MetaURL        = "url"
	MetaPermission = "permission"
	MetaChoice     = "choice" // a form of one single-select question
)

// RequestMeta is what elicit says of a request under _meta.elicit.
type RequestMeta struct {
	Kind string `json:"kind,omitempty"`
	// AskedAt is when the question was asked, RFC 3339 (see Asked).
	AskedAt string `json:"askedAt,omitempty"`
	// Tool is the title of the tool call the question is about (a
	// permission's), sanitized.
	Tool string `json:"tool,omitempty"`
	// Call is a permission's tool call whole, for a client that shows it
	// as the session does (the inbox): nil when it is too big to send
	// (the request's message says it all in text) or not a permission.
	Call *ToolCall `json:"call,omitempty"`
}

// ToolCall is what a permission asks to allow: the tool call with its
// diffs in full, or the file elicit itself asks to write (Write*). Its
// text is the agent's: a client sanitizes it before it is shown.
type ToolCall struct {
	Title     string     `json:"title,omitempty"`
	Kind      string     `json:"kind,omitempty"` // read, edit, execute, ...
	Locations []string   `json:"locations,omitempty"`
	Content   []string   `json:"content,omitempty"` // the command, text
	Diffs     []CallDiff `json:"diffs,omitempty"`
	// WritePath, WriteRisk and WriteWhy are set when elicit asks about a
	// file write itself: the file, why it runs code later ("" when it
	// does not), and why elicit asks.
	WritePath string `json:"writePath,omitempty"`
	WriteRisk string `json:"writeRisk,omitempty"`
	WriteWhy  string `json:"writeWhy,omitempty"`
}

// CallDiff is a file edit of a tool call: the whole text before (empty
// for a new file) and after.
type CallDiff struct {
	Path string `json:"path"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new"`
}

// SessionMeta is what a same-user connection is told of the session
// under the session state's _meta.elicit.
type SessionMeta struct {
	Agent string `json:"agent,omitempty"` // the agent's (or MCP server's) name
	Cwd   string `json:"cwd,omitempty"`   // the session's directory
	PID   int    `json:"pid,omitempty"`   // the elicit process's id
	// Front is what runs it: "session", "serve" or "mcp".
	Front string `json:"front,omitempty"`
}

// metaEnvelope is _meta with elicit's key.
type metaEnvelope[T any] struct {
	Elicit *T `json:"elicit,omitempty"`
}

// Asked is AskedAt read, the zero time when it is absent or unreadable.
func (m RequestMeta) Asked() time.Time {
	t, _ := time.Parse(time.RFC3339Nano, m.AskedAt)
	return t
}

// Raw is m as a request's _meta.
func (m RequestMeta) Raw() json.RawMessage {
	b, _ := json.Marshal(metaEnvelope[RequestMeta]{Elicit: &m})
	return b
}

// MetaOf reads elicit's _meta of r, leniently; the zero value when there
// is none (another host's request).
func MetaOf(r *Request) RequestMeta {
	var env metaEnvelope[RequestMeta]
	lenient(r.Meta, &env)
	if env.Elicit == nil {
		return RequestMeta{}
	}
	return *env.Elicit
}

// sessionMetaRaw is m as the session state's _meta (nil for none).
func sessionMetaRaw(m *SessionMeta) json.RawMessage {
	if m == nil {
		return nil
	}
	b, _ := json.Marshal(metaEnvelope[SessionMeta]{Elicit: m})
	return b
}

// sessionMetaOf reads elicit's _meta of a session state.
func sessionMetaOf(raw json.RawMessage) SessionMeta {
	var env metaEnvelope[SessionMeta]
	lenient(raw, &env)
	if env.Elicit == nil {
		return SessionMeta{}
	}
	return *env.Elicit
}
