package modelmock

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// geminiTools is a gemini-cli-like tool list (cut down from 0.61.0).
const geminiTools = `[{"functionDeclarations":[
 {"name":"write_file","parametersJsonSchema":{"type":"object","properties":{"file_path":{"type":"string"},"content":{"type":"string"}},"required":["file_path","content"]}},
 {"name":"run_shell_command","parametersJsonSchema":{"type":"object","properties":{"command":{"type":"string"},"dir_path":{"type":"string"}},"required":["command"]}},
 {"name":"enter_plan_mode","parameters":{"type":"OBJECT","properties":{"reason":{"type":"STRING"}}}}]}]`

// geminiTurn is the result of assembling a Gemini stream.
type geminiTurn struct {
	text, call, args, finish string
	usage                    bool
}

// assembleGemini reads streamGenerateContent chunks.
func assembleGemini(t *testing.T, chunks []map[string]any) geminiTurn {
	t.Helper()
	var gt geminiTurn
	for _, c := range chunks {
		cand := c["candidates"].([]any)[0].(map[string]any)
		if f, ok := cand["finishReason"].(string); ok {
			gt.finish = f
		}
		if c["usageMetadata"] != nil {
			gt.usage = true
		}
		content := cand["content"].(map[string]any)
		if content["role"] != "model" {
			t.Fatalf("role %v", content["role"])
		}
		for _, p := range content["parts"].([]any) {
			part := p.(map[string]any)
			if s, ok := part["text"].(string); ok {
				gt.text += s
			}
			if fc, ok := part["functionCall"].(map[string]any); ok {
				gt.call = fc["name"].(string)
				b, _ := json.Marshal(fc["args"])
				gt.args = string(b)
			}
		}
	}
	if gt.finish != "STOP" || !gt.usage {
		t.Fatalf("stream ended without STOP and usage: %+v", gt)
	}
	return gt
}

// geminiStream posts a streamGenerateContent request with ?alt=sse.
func geminiStream(t *testing.T, s *Server, contents string) geminiTurn {
	t.Helper()
	body := `{"systemInstruction":{"parts":[{"text":"- **Workspace Directories:**\n  - /tmp/g\n"}]},"tools":` + geminiTools + `,"contents":` + contents + `}`
	resp := post(t, s, "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", body, http.StatusOK)
	var chunks []map[string]any
	for _, e := range parseSSE(t, resp.Body) {
		if e.name != "" {
			t.Fatalf("named event %q", e.name)
		}
		chunks = append(chunks, e.decode(t))
	}
	return assembleGemini(t, chunks)
}

func TestGeminiHelloAndTools(t *testing.T) {
	s := startServer(t)
	gt := geminiStream(t, s, `[{"role":"user","parts":[{"text":"<session_context>x</session_context>"}]},{"role":"user","parts":[{"text":"hello"}]}]`)
	if gt.text != HelloText || gt.call != "" {
		t.Fatalf("hello: %+v", gt)
	}
	if r := lastRequest(t, s); r.API != "gemini" || r.Model != "gemini-2.5-pro" || !r.Stream || r.LastUserText != "hello" {
		t.Fatalf("logged %+v", r)
	}
	gt = geminiStream(t, s, `[{"role":"user","parts":[{"text":"write"}]}]`)
	if gt.call != "write_file" || !jsonEqual(t, gt.args, `{"file_path":"/tmp/g/hello.txt","content":"hello from the mock model\n"}`) {
		t.Fatalf("write: %+v", gt)
	}
	gt = geminiStream(t, s, `[{"role":"user","parts":[{"text":"bash"}]}]`)
	if gt.call != "run_shell_command" || !jsonEqual(t, gt.args, `{"command":"echo hi"}`) {
		t.Fatalf("bash: %+v", gt)
	}
}

func TestGeminiFunctionResponseEndsTheTurn(t *testing.T) {
	s := startServer(t)
	gt := geminiStream(t, s, `[{"role":"user","parts":[{"text":"bash"}]},
	 {"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{}}}]},
	 {"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"hi"}}}]}]`)
	if gt.text != "done: run_shell_command: hi" || gt.call != "" {
		t.Fatalf("got %+v", gt)
	}
}

func TestGeminiStructuredOutputAndJSONArrayStream(t *testing.T) {
	s := startServer(t)
	body := `{"contents":[{"role":"user","parts":[{"text":"route me"}]}],"generationConfig":{"responseMimeType":"application/json",
	 "responseJsonSchema":{"type":"OBJECT","properties":{"reasoning":{"type":"STRING"},"score":{"type":"INTEGER"}},"required":["reasoning","score"]}}}`
	m := decodeBody(t, post(t, s, "/v1beta/models/flash:generateContent", body, http.StatusOK))
	gt := assembleGemini(t, []map[string]any{m})
	var out map[string]any
	if err := json.Unmarshal([]byte(gt.text), &out); err != nil || out["score"] == nil || out["reasoning"] == nil {
		t.Fatalf("structured output %q: %v", gt.text, err)
	}
	// Without alt=sse the stream is one JSON array of chunks.
	resp := post(t, s, "/v1beta/models/flash:streamGenerateContent", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, http.StatusOK)
	var chunks []map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&chunks); err != nil {
		t.Fatal(err)
	}
	if gt := assembleGemini(t, chunks); gt.text != HelloText || len(chunks) < 3 || !strings.HasPrefix(gt.finish, "STOP") {
		t.Fatalf("array stream: %d chunks, %+v", len(chunks), gt)
	}
}
