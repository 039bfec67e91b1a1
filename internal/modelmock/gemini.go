package modelmock

import (
	"encoding/json"
	"net/http"
	"strings"
)

// geminiRequest is the part of a Gemini generateContent request the mock
// reads.
type geminiRequest struct {
	Contents          []geminiContent `json:"contents"`
	SystemInstruction *geminiContent  `json:"systemInstruction"`
	Tools             []struct {
		FunctionDeclarations []struct {
			Name                 string         `json:"name"`
			Parameters           map[string]any `json:"parameters"`
			ParametersJSONSchema map[string]any `json:"parametersJsonSchema"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType   string         `json:"responseMimeType"`
		ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
		ResponseSchema     map[string]any `json:"responseSchema"`
	} `json:"generationConfig"`
}

// geminiContent is one turn: a role and its parts.
type geminiContent struct {
	Role  string `json:"role"`
	Parts []struct {
		Text             string `json:"text"`
		Thought          bool   `json:"thought"`
		FunctionResponse *struct {
			Name     string          `json:"name"`
			Response json.RawMessage `json:"response"`
		} `json:"functionResponse"`
	} `json:"parts"`
}

// texts returns the content's text parts, without thoughts.
func (c geminiContent) texts() []string {
	var out []string
	for _, p := range c.Parts {
		if p.Text != "" && !p.Thought {
			out = append(out, p.Text)
		}
	}
	return out
}

// state reads the last content of a Gemini request.
func (req geminiRequest) state() turnState {
	var texts []string
	if req.SystemInstruction != nil {
		texts = req.SystemInstruction.texts()
	}
	for _, c := range req.Contents {
		texts = append(texts, c.texts()...)
	}
	st := turnState{cwd: findCwd(texts...)}
	last := req.Contents[len(req.Contents)-1]
	for _, p := range last.Parts {
		if p.FunctionResponse != nil {
			st.toolResult = true
			st.resultTool = p.FunctionResponse.Name
			st.resultText = geminiResultText(p.FunctionResponse.Response)
		}
	}
	if last.Role == "user" && !st.toolResult {
		st.text = lastNonEmpty(last.texts())
	}
	return st
}

// geminiResultText is the text of a function response: its "output" or
// "error" field, else the whole JSON.
func geminiResultText(raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		for _, k := range []string{"output", "error", "llmContent"} {
			if s, ok := m[k].(string); ok {
				return s
			}
		}
	}
	return string(raw)
}

// gemini answers POST /v1beta/models/MODEL:generateContent and
// :streamGenerateContent (as server-sent events with ?alt=sse, else as a
// JSON array).
func (s *Server) gemini(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) {
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		badRequest(w, rec, err)
		return
	}
	if len(req.Contents) == 0 {
		badRequest(w, rec, errNoMessages)
		return
	}
	model, method, _ := strings.Cut(r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:], ":")
	var tools []tool
	for _, t := range req.Tools {
		for _, fd := range t.FunctionDeclarations {
			schema := fd.ParametersJSONSchema
			if schema == nil {
				schema = fd.Parameters
			}
			tools = append(tools, tool{name: fd.Name, schema: schema})
			rec.Tools = append(rec.Tools, fd.Name)
		}
	}
	st := req.state()
	rec.Model, rec.Stream = model, method == "streamGenerateContent"
	rec.LastUserText, rec.ToolResult = st.text, st.toolResult
	var parts [][]map[string]any // one list of parts per chunk
	if schema := jsonSchemaOf(req); schema != nil {
		// A structured-output side call (gemini-cli's model router): answer
		// JSON that fits the schema.
		rec.Reply = "json"
		parts = [][]map[string]any{{{"text": mustJSON(filler{}.value("", schema, 0))}}}
	} else {
		rp := decide(st, tools)
		rec.Reply = rp.label()
		for _, t := range rp.text {
			parts = append(parts, []map[string]any{{"text": t}})
		}
		if rp.kind == "tool" {
			parts = append(parts, []map[string]any{{"functionCall": map[string]any{
				"name": rp.tool.name, "args": json.RawMessage(rp.input)}}})
		}
	}
	inTok := 1 + len(body)/4
	chunk := func(ps []map[string]any, last bool) map[string]any {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": ps}, "index": 0}
		out := map[string]any{"candidates": []any{cand}, "modelVersion": model, "responseId": s.newID("resp_mock")}
		if last {
			cand["finishReason"] = "STOP"
			out["usageMetadata"] = map[string]any{"promptTokenCount": inTok, "candidatesTokenCount": 5, "totalTokenCount": inTok + 5}
		}
		return out
	}
	if method != "streamGenerateContent" {
		var all []map[string]any
		for _, ps := range parts {
			all = append(all, ps...)
		}
		writeJSON(w, http.StatusOK, chunk(all, true))
		return
	}
	if r.URL.Query().Get("alt") != "sse" {
		var chunks []any
		for i, ps := range parts {
			chunks = append(chunks, chunk(ps, i == len(parts)-1))
		}
		writeJSON(w, http.StatusOK, chunks)
		return
	}
	ev := newSSE(w)
	for i, ps := range parts {
		ev.event("", chunk(ps, i == len(parts)-1))
	}
}

// jsonSchemaOf returns the response schema of a structured-output request.
func jsonSchemaOf(req geminiRequest) map[string]any {
	if req.GenerationConfig.ResponseMimeType != "application/json" {
		return nil
	}
	if req.GenerationConfig.ResponseJSONSchema != nil {
		return req.GenerationConfig.ResponseJSONSchema
	}
	return req.GenerationConfig.ResponseSchema
}
