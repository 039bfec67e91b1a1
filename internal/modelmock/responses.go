package modelmock

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// responsesRequest is the part of a Responses API request the mock reads.
type responsesRequest struct {
	Model        string          `json:"model"`
	Stream       bool            `json:"stream"`
	Instructions string          `json:"instructions"`
	Input        json.RawMessage `json:"input"`
	Tools        []struct {
		Type       string         `json:"type"`
		Name       string         `json:"name"`
		Parameters map[string]any `json:"parameters"`
	} `json:"tools"`
}

// responsesItem is one input item: a message, a tool call or its output.
type responsesItem struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	CallID  string          `json:"call_id"`
	Name    string          `json:"name"`
	Output  json.RawMessage `json:"output"`
}

// items decodes the input: a plain string is one user message.
func (req responsesRequest) items() []responsesItem {
	var s string
	if json.Unmarshal(req.Input, &s) == nil {
		raw, _ := json.Marshal(s)
		return []responsesItem{{Type: "message", Role: "user", Content: raw}}
	}
	var items []responsesItem
	_ = json.Unmarshal(req.Input, &items)
	return items
}

// state reads the last item of a Responses API request.
func (req responsesRequest) state(items []responsesItem) turnState {
	texts := []string{req.Instructions}
	toolNames := map[string]string{}
	for _, it := range items {
		if it.Type == "message" || it.Type == "" {
			texts = append(texts, partsOf(it.Content)...)
		}
		if it.Name != "" && it.CallID != "" {
			toolNames[it.CallID] = it.Name
		}
	}
	st := turnState{cwd: findCwd(texts...)}
	last := items[len(items)-1]
	switch {
	case strings.HasSuffix(last.Type, "_output"):
		st.toolResult = true
		st.resultText = strings.Join(partsOf(last.Output), "\n")
		st.resultTool = toolNames[last.CallID]
	case last.Role == "user":
		st.text = lastNonEmpty(partsOf(last.Content))
	}
	return st
}

// responses answers POST /v1/responses.
func (s *Server) responses(w http.ResponseWriter, body []byte, rec *Request) {
	var req responsesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		badRequest(w, rec, err)
		return
	}
	items := req.items()
	if len(items) == 0 {
		badRequest(w, rec, errNoMessages)
		return
	}
	var tools []tool
	for _, t := range req.Tools {
		if t.Name == "" {
			continue // built-in tools such as web_search
		}
		tools = append(tools, tool{name: t.Name, schema: t.Parameters, custom: t.Type == "custom"})
		rec.Tools = append(rec.Tools, t.Name)
	}
	st := req.state(items)
	rec.Model, rec.Stream, rec.LastUserText, rec.ToolResult = req.Model, req.Stream, st.text, st.toolResult
	rp := decide(st, tools)
	rec.Reply = rp.label()
	model := req.Model
	if model == "" {
		model = "mock-model"
	}
	text := strings.Join(rp.text, "")
	msgItem := map[string]any{
		"id": s.newID("msg_mock"), "type": "message", "status": "completed", "role": "assistant",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}},
	}
	output := []any{msgItem}
	var callItem map[string]any
	if rp.kind == "tool" {
		callItem = map[string]any{"id": s.newID("fc_mock"), "type": "function_call", "status": "completed",
			"call_id": s.newID("call_mock"), "name": rp.tool.name, "arguments": rp.input}
		if rp.tool.custom {
			callItem["type"] = "custom_tool_call"
			callItem["input"] = rp.input
			delete(callItem, "arguments")
		}
		output = append(output, callItem)
	}
	inTok, outTok := 1+len(body)/4, 5
	resp := map[string]any{
		"id": s.newID("resp_mock"), "object": "response", "created_at": time.Now().Unix(),
		"status": "completed", "model": model, "output": output,
		"usage": map[string]any{"input_tokens": inTok, "output_tokens": outTok, "total_tokens": inTok + outTok,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}},
	}
	if !req.Stream {
		writeJSON(w, http.StatusOK, resp)
		return
	}
	ev := newSSE(w)
	seq := 0
	send := func(typ string, fields map[string]any) {
		fields["type"], fields["sequence_number"] = typ, seq
		seq++
		ev.event(typ, fields)
	}
	started := map[string]any{}
	for k, v := range resp {
		started[k] = v
	}
	started["status"], started["output"] = "in_progress", []any{}
	delete(started, "usage")
	send("response.created", map[string]any{"response": started})
	send("response.in_progress", map[string]any{"response": started})

	msgID := msgItem["id"]
	send("response.output_item.added", map[string]any{"output_index": 0, "item": map[string]any{
		"id": msgID, "type": "message", "status": "in_progress", "role": "assistant", "content": []any{}}})
	part := map[string]any{"type": "output_text", "text": "", "annotations": []any{}}
	send("response.content_part.added", map[string]any{"item_id": msgID, "output_index": 0, "content_index": 0, "part": part})
	for _, t := range rp.text {
		send("response.output_text.delta", map[string]any{"item_id": msgID, "output_index": 0, "content_index": 0, "delta": t})
	}
	send("response.output_text.done", map[string]any{"item_id": msgID, "output_index": 0, "content_index": 0, "text": text})
	send("response.content_part.done", map[string]any{"item_id": msgID, "output_index": 0, "content_index": 0,
		"part": map[string]any{"type": "output_text", "text": text, "annotations": []any{}}})
	send("response.output_item.done", map[string]any{"output_index": 0, "item": msgItem})

	if callItem != nil {
		added := map[string]any{}
		for k, v := range callItem {
			added[k] = v
		}
		added["status"] = "in_progress"
		deltaEvent, doneEvent, field := "response.function_call_arguments.delta", "response.function_call_arguments.done", "arguments"
		if rp.tool.custom {
			deltaEvent, doneEvent, field = "response.custom_tool_call_input.delta", "response.custom_tool_call_input.done", "input"
		}
		added[field] = ""
		send("response.output_item.added", map[string]any{"output_index": 1, "item": added})
		for _, p := range split(rp.input, 3) {
			send(deltaEvent, map[string]any{"item_id": callItem["id"], "output_index": 1, "delta": p})
		}
		send(doneEvent, map[string]any{"item_id": callItem["id"], "output_index": 1, field: rp.input})
		send("response.output_item.done", map[string]any{"output_index": 1, "item": callItem})
	}
	send("response.completed", map[string]any{"response": resp})
}
