package modelmock

import (
	"encoding/json"
	"net/http"
	"strings"
)

// anthropicRequest is the part of a Messages API request the mock reads.
type anthropicRequest struct {
	Model    string             `json:"model"`
	Stream   bool               `json:"stream"`
	System   json.RawMessage    `json:"system"`
	Messages []anthropicMessage `json:"messages"`
	Tools    []struct {
		Name        string         `json:"name"`
		InputSchema map[string]any `json:"input_schema"`
	} `json:"tools"`
}

// anthropicMessage is one message; content is a string or a block list.
type anthropicMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// anthropicBlock is one content block of a message.
type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

// blocks decodes a content field: a plain string becomes one text block.
func blocks(raw json.RawMessage) []anthropicBlock {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []anthropicBlock{{Type: "text", Text: s}}
	}
	var bs []anthropicBlock
	_ = json.Unmarshal(raw, &bs)
	return bs
}

// textOf flattens a content field (string or blocks) to its text.
func textOf(raw json.RawMessage) string {
	var parts []string
	for _, b := range blocks(raw) {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// state reads the last message of a Messages API request.
func (req anthropicRequest) state() turnState {
	texts := []string{textOf(req.System)}
	toolNames := map[string]string{}
	for _, m := range req.Messages {
		for _, b := range blocks(m.Content) {
			switch b.Type {
			case "text":
				texts = append(texts, b.Text)
			case "tool_use":
				toolNames[b.ID] = b.Name
			}
		}
	}
	st := turnState{cwd: findCwd(texts...)}
	// Claude Code puts a system-role message (the environment) after the
	// user's message: the last message that counts is the last one that is
	// not a system message.
	last := req.Messages[len(req.Messages)-1]
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role != "system" {
			last = req.Messages[i]
			break
		}
	}
	var parts []string
	for _, b := range blocks(last.Content) {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "tool_result":
			st.toolResult = true
			st.resultText = textOf(b.Content)
			st.resultTool = toolNames[b.ToolUseID]
		}
	}
	if last.Role == "user" {
		st.text = lastNonEmpty(parts)
	}
	return st
}

// anthropicMessages answers POST /v1/messages.
func (s *Server) anthropicMessages(w http.ResponseWriter, body []byte, rec *Request) {
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		badRequest(w, rec, err)
		return
	}
	if len(req.Messages) == 0 {
		badRequest(w, rec, errNoMessages)
		return
	}
	tools := make([]tool, 0, len(req.Tools))
	for _, t := range req.Tools {
		tools = append(tools, tool{name: t.Name, schema: t.InputSchema})
		rec.Tools = append(rec.Tools, t.Name)
	}
	st := req.state()
	rec.Model, rec.Stream, rec.LastUserText, rec.ToolResult = req.Model, req.Stream, st.text, st.toolResult
	rp := decide(st, tools)
	rec.Reply = rp.label()
	model := req.Model
	if model == "" {
		model = "mock-model"
	}
	id := s.newID("msg_mock")
	stop := "end_turn"
	var toolID string
	if rp.kind == "tool" {
		stop, toolID = "tool_use", s.newID("toolu_mock")
	}
	inTok, outTok := 1+len(body)/4, 5
	if !req.Stream {
		content := []any{map[string]any{"type": "text", "text": strings.Join(rp.text, "")}}
		if rp.kind == "tool" {
			content = append(content, map[string]any{
				"type": "tool_use", "id": toolID, "name": rp.tool.name, "input": json.RawMessage(rp.input),
			})
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model,
			"content": content, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": inTok, "output_tokens": outTok},
		})
		return
	}
	ev := newSSE(w)
	ev.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": inTok, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	}})
	ev.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "text", "text": ""}})
	ev.event("ping", map[string]any{"type": "ping"})
	for _, t := range rp.text {
		ev.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": t}})
	}
	ev.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	if rp.kind == "tool" {
		ev.event("content_block_start", map[string]any{"type": "content_block_start", "index": 1,
			"content_block": map[string]any{"type": "tool_use", "id": toolID, "name": rp.tool.name, "input": map[string]any{}}})
		for _, part := range split(rp.input, 3) {
			ev.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 1,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
		}
		ev.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 1})
	}
	ev.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": outTok}})
	ev.event("message_stop", map[string]any{"type": "message_stop"})
}

// split cuts s into at most n pieces of about the same length, on rune
// boundaries, so JSON arguments arrive in several deltas.
func split(s string, n int) []string {
	r := []rune(s)
	if len(r) == 0 {
		return []string{""}
	}
	size := (len(r) + n - 1) / n
	var out []string
	for i := 0; i < len(r); i += size {
		out = append(out, string(r[i:min(i+size, len(r))]))
	}
	return out
}
