package acpconn

import (
	"bytes"
	"encoding/json"
	"errors"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// wireUpdate is a session/update's params with the members of every kind
// of update, each of the type the SDK's variant for that kind gives it, so
// any update is decoded in one pass: the SDK's own union decodes the
// update through a map, then again as its variant, and every union inside
// it the same way. Members of other kinds are decoded too, and one of the
// wrong type fails the pass, which then leaves the update to the SDK's
// path (decodeUpdate): only updates as the SDK would read them are read
// here.
type wireUpdate struct {
	SessionID string `json:"sessionId"`
	Update    struct {
		Kind              string                    `json:"sessionUpdate"`
		Meta              *metaWire                 `json:"_meta"`
		Content           updateContent             `json:"content"`
		MessageID         *string                   `json:"messageId"`
		ToolCallID        acp.ToolCallId            `json:"toolCallId"`
		Title             *string                   `json:"title"`
		ToolKind          *acp.ToolKind             `json:"kind"`
		Status            *acp.ToolCallStatus       `json:"status"`
		Locations         []acp.ToolCallLocation    `json:"locations"`
		Entries           []acp.PlanEntry           `json:"entries"`
		AvailableCommands []acp.AvailableCommand    `json:"availableCommands"`
		CurrentModeID     acp.SessionModeId         `json:"currentModeId"`
		ConfigOptions     []acp.SessionConfigOption `json:"configOptions"`
		UpdatedAt         *string                   `json:"updatedAt"`
		Cost              *acp.Cost                 `json:"cost"`
		Size              int                       `json:"size"`
		Used              int                       `json:"used"`
	} `json:"update"`
}

// errShape fails the one pass for a member it leaves to the SDK's path.
var errShape = errors.New("left to the SDK's decoding")

// updateContent is the content member, whose shape depends on the kind: a
// content block for a chunk (a text block read the way decodeChunk reads
// it, any other with the SDK's type), a list for a tool call.
type updateContent struct {
	shape byte // 0 (absent), '{', '[' or 'n'
	text  *string
	block acp.ContentBlock
	list  []acp.ToolCallContent
}

// UnmarshalJSON implements json.Unmarshaler.
func (c *updateContent) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) == 0 || c.shape != 0 {
		return errShape // content twice: encoding/json's merging is left to the SDK's path
	}
	c.shape = b[0]
	switch c.shape {
	case 'n':
		return nil
	case '[':
		return json.Unmarshal(b, &c.list)
	case '{':
		var t struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if json.Unmarshal(b, &t) == nil && t.Type == "text" && t.Text != nil {
			c.text = t.Text
			return nil
		}
		return json.Unmarshal(b, &c.block)
	}
	return errShape
}

// decodeWire decodes any update in one pass; ok is false for what it
// leaves to the SDK's path: a pass that fails, or a content of the wrong
// shape for the kind.
func decodeWire(params json.RawMessage) (ev Event, sessionID string, ok bool) {
	var w wireUpdate
	if json.Unmarshal(params, &w) != nil || w.Update.Kind == "" {
		return nil, "", false // no kind (or no update at all): the SDK's path says which
	}
	u, c := &w.Update, &w.Update.Content
	var su acp.SessionUpdate
	switch u.Kind {
	case "user_message_chunk", "agent_message_chunk", "agent_thought_chunk":
		if c.shape != '{' {
			return nil, "", false
		}
		if c.text != nil {
			return MessageChunk{Role: chunkRoles[u.Kind], Text: sanitize.Text(*c.text), Faithful: sanitize.Faithful(*c.text), MessageID: messageID(u.MessageID)}, w.SessionID, true
		}
		switch u.Kind {
		case "user_message_chunk":
			su.UserMessageChunk = &acp.SessionUpdateUserMessageChunk{Content: c.block, MessageId: u.MessageID}
		case "agent_message_chunk":
			su.AgentMessageChunk = &acp.SessionUpdateAgentMessageChunk{Content: c.block, MessageId: u.MessageID}
		default:
			su.AgentThoughtChunk = &acp.SessionUpdateAgentThoughtChunk{Content: c.block, MessageId: u.MessageID}
		}
	case "tool_call", "tool_call_update":
		if c.shape == '{' {
			return nil, "", false
		}
		if u.Kind == "tool_call_update" {
			su.ToolCallUpdate = &acp.SessionToolCallUpdate{ToolCallId: u.ToolCallID, Title: u.Title, Kind: u.ToolKind,
				Status: u.Status, Locations: u.Locations, Content: c.list}
			break
		}
		t := &acp.SessionUpdateToolCall{ToolCallId: u.ToolCallID, Locations: u.Locations, Content: c.list}
		if u.Title != nil {
			t.Title = *u.Title
		}
		if u.ToolKind != nil {
			t.Kind = *u.ToolKind
		}
		if u.Status != nil {
			t.Status = *u.Status
		}
		su.ToolCall = t
	case "plan":
		su.Plan = &acp.SessionUpdatePlan{Entries: u.Entries}
	case "available_commands_update":
		su.AvailableCommandsUpdate = &acp.SessionAvailableCommandsUpdate{AvailableCommands: u.AvailableCommands}
	case "current_mode_update":
		su.CurrentModeUpdate = &acp.SessionCurrentModeUpdate{CurrentModeId: u.CurrentModeID}
	case "config_option_update":
		su.ConfigOptionUpdate = &acp.SessionConfigOptionUpdate{ConfigOptions: u.ConfigOptions}
	case "session_info_update":
		su.SessionInfoUpdate = &acp.SessionSessionInfoUpdate{Title: u.Title, UpdatedAt: u.UpdatedAt}
	case "usage_update":
		su.UsageUpdate = &acp.SessionUsageUpdate{Cost: u.Cost, Size: u.Size, Used: u.Used}
	}
	ev = updateEvent(su, u.Kind)
	if tc, ok := ev.(ToolCall); ok {
		ev = withMeta(tc, u.Meta.meta()) // _meta: the agents' terminal extension
	}
	return ev, w.SessionID, true
}
