package ahp

import (
	"encoding/json"
	"fmt"
)

// Channel URIs.
const (
	RootChannel   = "ahp-root://"
	sessionScheme = "ahp-session:/"
	chatScheme    = "ahp-chat:/"
)

// SessionURI is the channel of session id.
func SessionURI(id string) string { return sessionScheme + id }

// ChatURI is the channel of the chat id (elicit's host has one chat per
// session, with the session's id).
func ChatURI(id string) string { return chatScheme + id }

// JSON-RPC error codes the host answers with.
const (
	CodeParseError         = -32700
	CodeInvalidRequest     = -32600
	CodeMethodNotFound     = -32601
	CodeInvalidParams      = -32602
	CodeUnsupportedVersion = -32005
	CodeNotFound           = -32008
)

// rpcMessage is one JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method alone) or a response (ID with Result or Error).
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// RPCError is a JSON-RPC error.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Error is the message with the code.
func (e *RPCError) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

// Origin names the client that dispatched an action.
type Origin struct {
	ClientID  string `json:"clientId"`
	ClientSeq int64  `json:"clientSeq"`
}

// envelope is the params of an `action` notification.
type envelope struct {
	Channel         string          `json:"channel"`
	Action          json.RawMessage `json:"action"`
	ServerSeq       int64           `json:"serverSeq"`
	Origin          *Origin         `json:"origin,omitempty"`
	RejectionReason string          `json:"rejectionReason,omitempty"`
}

// Snapshot is a channel's state at a server sequence number.
type snapshot struct {
	Resource string          `json:"resource"`
	State    json.RawMessage `json:"state"`
	FromSeq  int64           `json:"fromSeq"`
}

type initializeParams struct {
	Channel              string    `json:"channel"`
	ProtocolVersions     []string  `json:"protocolVersions"`
	ClientID             string    `json:"clientId"`
	ClientInfo           *implInfo `json:"clientInfo,omitempty"`
	InitialSubscriptions []string  `json:"initialSubscriptions,omitempty"`
}

type implInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type initializeResult struct {
	ProtocolVersion string     `json:"protocolVersion"`
	ServerSeq       int64      `json:"serverSeq"`
	ServerInfo      *implInfo  `json:"serverInfo,omitempty"`
	Snapshots       []snapshot `json:"snapshots"`
}

type reconnectParams struct {
	Channel           string   `json:"channel"`
	ClientID          string   `json:"clientId"`
	LastSeenServerSeq int64    `json:"lastSeenServerSeq"`
	Subscriptions     []string `json:"subscriptions"`
}

type reconnectResult struct {
	Type      string     `json:"type"` // replay | snapshot
	Actions   []envelope `json:"actions,omitempty"`
	Missing   []string   `json:"missing,omitempty"`
	Snapshots []snapshot `json:"snapshots,omitempty"`
}

type channelParams struct {
	Channel string `json:"channel"`
}

type subscribeResult struct {
	Snapshot *snapshot `json:"snapshot,omitempty"`
}

type dispatchParams struct {
	Channel   string          `json:"channel"`
	ClientSeq int64           `json:"clientSeq"`
	Action    json.RawMessage `json:"action"`
}

// SessionSummary is one entry of listSessions.
type SessionSummary struct {
	Resource   string `json:"resource"`
	Provider   string `json:"provider"`
	Title      string `json:"title"`
	Status     int    `json:"status"`
	CreatedAt  string `json:"createdAt,omitempty"`
	ModifiedAt string `json:"modifiedAt,omitempty"`
}

// Session status bits (SessionStatus).
const (
	StatusIdle        = 1
	StatusError       = 1 << 1
	StatusInProgress  = 1 << 3
	StatusInputNeeded = 1<<3 | 1<<4
)

// NeedsInput reports whether the session waits for input.
func (s SessionSummary) NeedsInput() bool { return s.Status&StatusInputNeeded == StatusInputNeeded }

type listSessionsResult struct {
	Items    []SessionSummary `json:"items"`
	Sessions []SessionSummary `json:"sessions,omitempty"` // older hosts
}
