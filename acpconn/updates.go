package acpconn

import (
	"encoding/json"
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// chunkRoles maps the streamed-text kinds to their roles.
var chunkRoles = map[string]Role{
	"agent_message_chunk": RoleAgent, "agent_thought_chunk": RoleThought, "user_message_chunk": RoleUser,
}

// decodeChunk is the fast path for the commonest update by far, a text
// chunk: one decoding pass instead of the SDK's several (it decodes every
// union through a map). ok is false for anything else.
func decodeChunk(params json.RawMessage) (ev MessageChunk, sessionID string, ok bool) {
	var n struct {
		SessionID string `json:"sessionId"`
		Update    struct {
			Kind      string  `json:"sessionUpdate"`
			MessageID *string `json:"messageId"`
			Content   *struct {
				Type string  `json:"type"`
				Text *string `json:"text"`
			} `json:"content"`
		} `json:"update"`
	}
	if json.Unmarshal(params, &n) != nil {
		return ev, "", false
	}
	role, isChunk := chunkRoles[n.Update.Kind]
	c := n.Update.Content
	if !isChunk || c == nil || c.Type != "text" || c.Text == nil {
		return ev, "", false
	}
	return MessageChunk{Role: role, Text: sanitize.Text(*c.Text), Faithful: sanitize.Faithful(*c.Text), MessageID: messageID(n.Update.MessageID)}, n.SessionID, true
}

// decodeUpdate turns the params of a session/update into an event and the
// session it is for. It reads the sessionUpdate discriminator itself: the
// SDK decodes an unknown kind as an empty session_info_update, which would
// hide it. Every update is decoded in one pass (a text chunk by scanChunk,
// any update by decodeWire); the paths below them, which take several,
// only read what those leave.
func decodeUpdate(params json.RawMessage) (Event, string, error) {
	if ev, sid, ok := scanChunk(params); ok {
		return ev, sid, nil
	}
	if ev, sid, ok := decodeWire(params); ok {
		return ev, sid, nil
	}
	if ev, sid, ok := decodeChunk(params); ok {
		return ev, sid, nil
	}
	var n struct {
		SessionID string `json:"sessionId"`
	}
	_ = json.Unmarshal(params, &n) // decodeUpdateSDK reports a malformed one
	ev, err := decodeUpdateSDK(params)
	return ev, n.SessionID, err
}

// decodeUpdateSDK decodes any update with the SDK's types.
func decodeUpdateSDK(params json.RawMessage) (Event, error) {
	var n struct {
		SessionID string          `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
	}
	if err := json.Unmarshal(params, &n); err != nil {
		return nil, err
	}
	var disc struct {
		Kind string `json:"sessionUpdate"`
	}
	if err := json.Unmarshal(n.Update, &disc); err != nil {
		return nil, err
	}
	var u acp.SessionUpdate
	switch disc.Kind {
	case "user_message_chunk", "agent_message_chunk", "agent_thought_chunk",
		"tool_call", "tool_call_update", "plan", "available_commands_update",
		"current_mode_update", "config_option_update", "session_info_update", "usage_update":
		if err := json.Unmarshal(n.Update, &u); err != nil {
			return nil, fmt.Errorf("%s: %w", disc.Kind, err)
		}
	default:
		return UnknownUpdate{Kind: sanitize.Line(disc.Kind)}, nil
	}
	ev := updateEvent(u, disc.Kind)
	if tc, ok := ev.(ToolCall); ok {
		ev = withMeta(tc, metaOf(n.Update)) // as decodeWire reads _meta
	}
	return ev, nil
}

// updateEvent is the event for an update the SDK's types hold.
func updateEvent(u acp.SessionUpdate, kind string) Event {
	switch {
	case u.AgentMessageChunk != nil:
		return MessageChunk{Role: RoleAgent, Text: blockText(u.AgentMessageChunk.Content), MessageID: messageID(u.AgentMessageChunk.MessageId)}
	case u.AgentThoughtChunk != nil:
		return MessageChunk{Role: RoleThought, Text: blockText(u.AgentThoughtChunk.Content), MessageID: messageID(u.AgentThoughtChunk.MessageId)}
	case u.UserMessageChunk != nil:
		return MessageChunk{Role: RoleUser, Text: blockText(u.UserMessageChunk.Content), MessageID: messageID(u.UserMessageChunk.MessageId)}
	case u.ToolCall != nil:
		t := u.ToolCall
		return ToolCall{
			ID: string(t.ToolCallId), New: true, Title: sanitize.Line(t.Title),
			Kind: sanitize.Line(string(t.Kind)), Status: orDefault(sanitize.Line(string(t.Status)), "pending"),
			Locations: locations(t.Locations), Content: toolContent(t.Content),
			Diffs: toolDiffs(t.Content), Terminals: toolTerminals(t.Content),
		}
	case u.ToolCallUpdate != nil:
		return toolCallUpdate(acp.ToolCallUpdate{
			ToolCallId: u.ToolCallUpdate.ToolCallId, Title: u.ToolCallUpdate.Title, Kind: u.ToolCallUpdate.Kind,
			Status: u.ToolCallUpdate.Status, Locations: u.ToolCallUpdate.Locations, Content: u.ToolCallUpdate.Content,
		})
	case u.Plan != nil:
		p := Plan{}
		for _, e := range u.Plan.Entries {
			p.Entries = append(p.Entries, PlanEntry{Content: sanitize.Line(e.Content), Priority: sanitize.Line(string(e.Priority)), Status: sanitize.Line(string(e.Status))})
		}
		return p
	case u.AvailableCommandsUpdate != nil:
		c := Commands{}
		for _, cmd := range u.AvailableCommandsUpdate.AvailableCommands {
			cm := Command{Name: sanitize.Line(cmd.Name), Description: sanitize.Line(cmd.Description)}
			if in := cmd.Input; in != nil && in.Unstructured != nil {
				cm.Hint = sanitize.Line(in.Unstructured.Hint)
			}
			c.List = append(c.List, cm)
		}
		return c
	case u.CurrentModeUpdate != nil:
		return ModeChanged{ID: string(u.CurrentModeUpdate.CurrentModeId)}
	case u.ConfigOptionUpdate != nil:
		return ConfigOptions{Options: configOptions(u.ConfigOptionUpdate.ConfigOptions)}
	case u.SessionInfoUpdate != nil:
		title := ""
		if u.SessionInfoUpdate.Title != nil {
			title = sanitize.Line(*u.SessionInfoUpdate.Title)
		}
		return SessionInfo{Title: title}
	case u.UsageUpdate != nil:
		us := Usage{Used: u.UsageUpdate.Used, Size: u.UsageUpdate.Size}
		if c := u.UsageUpdate.Cost; c != nil {
			us.Cost = sanitize.Line(fmt.Sprintf("%.2f %s", c.Amount, c.Currency))
		}
		return us
	}
	return UnknownUpdate{Kind: sanitize.Line(kind)}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// toolCallUpdate converts the SDK's update (also used inside permission
// requests) into a ToolCall event.
func toolCallUpdate(t acp.ToolCallUpdate) ToolCall {
	tc := ToolCall{ID: string(t.ToolCallId), Locations: locations(t.Locations), Content: toolContent(t.Content),
		Diffs: toolDiffs(t.Content), Terminals: toolTerminals(t.Content)}
	if t.Title != nil {
		tc.Title = sanitize.Line(*t.Title)
	}
	if t.Kind != nil {
		tc.Kind = sanitize.Line(string(*t.Kind))
	}
	if t.Status != nil {
		tc.Status = sanitize.Line(string(*t.Status))
	}
	return tc
}

func locations(ls []acp.ToolCallLocation) []string {
	var out []string
	for _, l := range ls {
		s := l.Path
		if l.Line != nil {
			s = fmt.Sprintf("%s:%d", l.Path, *l.Line)
		}
		out = append(out, sanitize.Line(s))
	}
	return out
}

func toolContent(cs []acp.ToolCallContent) []string {
	var out []string
	for _, c := range cs {
		switch {
		case c.Content != nil:
			out = append(out, blockText(c.Content.Content))
		case c.Diff != nil:
			out = append(out, sanitize.Text(diffText(c.Diff)))
		case c.Terminal != nil:
			out = append(out, sanitize.Line("[terminal "+c.Terminal.TerminalId+"]"))
		}
	}
	return out
}

// toolDiffs are the diffs among a tool call's content, whole.
func toolDiffs(cs []acp.ToolCallContent) []Diff {
	var out []Diff
	for _, c := range cs {
		if d := c.Diff; d != nil {
			old := ""
			if d.OldText != nil {
				old = keepCRLF(*d.OldText)
			}
			out = append(out, Diff{Path: sanitize.Line(d.Path), Old: old, New: keepCRLF(d.NewText)})
		}
	}
	return out
}

// keepCRLF makes a diff's text safe to draw without hiding anything: a
// CRLF line ending stays, and every other control is shown as a marker
// (sanitize.Diff), since the diff is what the user approves.
func keepCRLF(s string) string { return sanitize.Diff(s) }

// toolTerminals are the ids of the terminals among a tool call's content.
func toolTerminals(cs []acp.ToolCallContent) []string {
	var out []string
	for _, c := range cs {
		if c.Terminal != nil {
			out = append(out, c.Terminal.TerminalId)
		}
	}
	return out
}

// diffText renders a tool call's diff as a compact unified-style listing:
// every old line with "-", every new line with "+".
func diffText(d *acp.ToolCallContentDiff) string {
	var b strings.Builder
	fmt.Fprintf(&b, "diff %s\n", d.Path)
	if d.OldText != nil && *d.OldText != "" {
		for _, l := range strings.Split(strings.TrimSuffix(*d.OldText, "\n"), "\n") {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(strings.TrimSuffix(d.NewText, "\n"), "\n") {
		b.WriteString("+ " + l + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// blockText is the text of a content block; other block kinds are named in
// brackets so nothing disappears without a trace.
func blockText(c acp.ContentBlock) string {
	switch {
	case c.Text != nil:
		return sanitize.Text(c.Text.Text)
	case c.Image != nil:
		return sanitize.Line("[image " + c.Image.MimeType + "]")
	case c.Audio != nil:
		return sanitize.Line("[audio " + c.Audio.MimeType + "]")
	case c.ResourceLink != nil:
		return sanitize.Line("[" + c.ResourceLink.Name + "](" + c.ResourceLink.Uri + ")")
	case c.Resource != nil:
		if t := c.Resource.Resource.TextResourceContents; t != nil {
			return sanitize.Text(t.Text)
		}
		if b := c.Resource.Resource.BlobResourceContents; b != nil {
			return sanitize.Line("[resource " + b.Uri + "]")
		}
	}
	return "[unsupported content]"
}

func configOptions(opts []acp.SessionConfigOption) []ConfigOption {
	var out []ConfigOption
	for _, o := range opts {
		switch {
		case o.Select != nil:
			s := o.Select
			co := ConfigOption{ID: string(s.Id), Name: sanitize.Line(s.Name), Current: string(s.CurrentValue)}
			if s.Description != nil {
				co.Description = sanitize.Line(*s.Description)
			}
			if s.Category != nil {
				co.Category = sanitize.Line(string(*s.Category))
			}
			if s.Options.Ungrouped != nil {
				for _, v := range *s.Options.Ungrouped {
					co.Values = append(co.Values, choice(v))
				}
			}
			if s.Options.Grouped != nil {
				for _, g := range *s.Options.Grouped {
					for _, v := range g.Options {
						co.Values = append(co.Values, choice(v))
					}
				}
			}
			out = append(out, co)
		case o.Boolean != nil:
			b := o.Boolean
			co := ConfigOption{ID: string(b.Id), Name: sanitize.Line(b.Name), Boolean: true, Current: fmt.Sprint(b.CurrentValue)}
			if b.Description != nil {
				co.Description = sanitize.Line(*b.Description)
			}
			if b.Category != nil {
				co.Category = sanitize.Line(string(*b.Category))
			}
			out = append(out, co)
		}
	}
	return out
}

// choice is one value of a select option, made safe to draw.
func choice(v acp.SessionConfigSelectOption) Choice {
	ch := Choice{ID: string(v.Value), Name: sanitize.Line(v.Name)} // the id exact, for the wire
	if v.Description != nil {
		ch.Description = sanitize.Line(*v.Description)
	}
	return ch
}

// messageID is a chunk's message id, made safe ("" when absent).
func messageID(id *string) string {
	if id == nil {
		return ""
	}
	return sanitize.Line(*id)
}
