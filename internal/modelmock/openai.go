package modelmock

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// chatRequest is the part of a Chat Completions request the mock reads.
type chatRequest struct {
	Model         string        `json:"model"`
	Stream        bool          `json:"stream"`
	Messages      []chatMessage `json:"messages"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Tools []struct {
		Type     string `json:"type"`
		Function struct {
			Name       string         `json:"name"`
			Parameters map[string]any `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// chatMessage is one message; content is a string or a list of parts.
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// partsOf returns the text parts of a Chat Completions or Responses content
// field: a string, or a list of {type, text} parts.
func partsOf(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	var ps []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &ps)
	var out []string
	for _, p := range ps {
		if p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return out
}

// state reads the last message of a Chat Completions request.
func (req chatRequest) state() turnState {
	var texts []string
	toolNames := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == "system" || m.Role == "developer" || m.Role == "user" {
			texts = append(texts, partsOf(m.Content)...)
		}
		for _, c := range m.ToolCalls {
			toolNames[c.ID] = c.Function.Name
		}
	}
	st := turnState{cwd: findCwd(texts...)}
	last := req.Messages[len(req.Messages)-1]
	switch last.Role {
	case "tool", "function":
		st.toolResult = true
		st.resultText = strings.Join(partsOf(last.Content), "\n")
		st.resultTool = toolNames[last.ToolCallID]
	case "user":
		st.text = lastNonEmpty(partsOf(last.Content))
	}
	return st
}

// chatCompletions answers POST /v1/chat/completions.
func (s *Server) chatCompletions(w http.ResponseWriter, body []byte, rec *Request) {
	var req chatRequest
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
		tools = append(tools, tool{name: t.Function.Name, schema: t.Function.Parameters})
		rec.Tools = append(rec.Tools, t.Function.Name)
	}
	st := req.state()
	rec.Model, rec.Stream, rec.LastUserText, rec.ToolResult = req.Model, req.Stream, st.text, st.toolResult
	rp := decide(st, tools)
	rec.Reply = rp.label()
	model := req.Model
	if model == "" {
		model = "mock-model"
	}
	id, created := s.newID("chatcmpl-mock"), time.Now().Unix()
	finish := "stop"
	var callID string
	if rp.kind == "tool" {
		finish, callID = "tool_calls", s.newID("call_mock")
	}
	inTok, outTok := 1+len(body)/4, 5
	usage := map[string]any{"prompt_tokens": inTok, "completion_tokens": outTok, "total_tokens": inTok + outTok}
	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": strings.Join(rp.text, "")}
		if rp.kind == "tool" {
			msg["tool_calls"] = []any{map[string]any{"id": callID, "type": "function",
				"function": map[string]any{"name": rp.tool.name, "arguments": rp.input}}}
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "object": "chat.completion", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}
	ev := newSSE(w)
	chunk := func(delta map[string]any, finish any) {
		ev.event("", map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		})
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	for _, t := range rp.text {
		chunk(map[string]any{"content": t}, nil)
	}
	if rp.kind == "tool" {
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": callID, "type": "function",
			"function": map[string]any{"name": rp.tool.name, "arguments": ""}}}}, nil)
		for _, part := range split(rp.input, 3) {
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0,
				"function": map[string]any{"arguments": part}}}}, nil)
		}
	}
	chunk(map[string]any{}, finish)
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		ev.event("", map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{}, "usage": usage,
		})
	}
	ev.raw("", "[DONE]")
}
