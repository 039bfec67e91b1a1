package modelmock

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// qwenTools is a Qwen Code-like Chat Completions tool list (schemas cut
// down from what qwen-code 0.24.4 sends).
const qwenTools = `[
 {"type":"function","function":{"name":"ask_user_question","parameters":{"type":"object","properties":{"questions":{"type":"array","items":{"type":"object","properties":{"question":{"type":"string"},"header":{"type":"string"},"options":{"type":"array","items":{"type":"object","properties":{"label":{"type":"string"},"description":{"type":"string"}},"required":["label","description"]}},"multiSelect":{"type":"boolean"}},"required":["question","header","options","multiSelect"]}}},"required":["questions"]}}},
 {"type":"function","function":{"name":"edit","parameters":{"type":"object","properties":{"file_path":{"type":"string"},"old_string":{"type":"string"},"new_string":{"type":"string"}},"required":["file_path","old_string","new_string"]}}},
 {"type":"function","function":{"name":"run_shell_command","parameters":{"type":"object","properties":{"command":{"type":"string"},"is_background":{"type":"boolean"}},"required":["command"]}}},
 {"type":"function","function":{"name":"todo_write","parameters":{"type":"object","properties":{"todos":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"content":{"type":"string"},"status":{"type":"string","enum":["pending","in_progress","completed"]}},"required":["content","status","id"]}}},"required":["todos"]}}},
 {"type":"function","function":{"name":"write_file","parameters":{"type":"object","properties":{"file_path":{"type":"string"},"content":{"type":"string"}},"required":["file_path","content"]}}}]`

// chatTurn is the result of assembling a Chat Completions stream.
type chatTurn struct {
	text, toolName, toolArgs, toolID, finish string
	usage                                    bool
}

// assembleChat reads a Chat Completions stream the way an SDK does.
func assembleChat(t *testing.T, evs []sseEvent) chatTurn {
	t.Helper()
	if len(evs) < 2 || evs[len(evs)-1].data != "[DONE]" {
		t.Fatalf("stream does not end with [DONE]: %v", evs)
	}
	var ct chatTurn
	for _, e := range evs[:len(evs)-1] {
		if e.name != "" {
			t.Fatalf("named event %q in a Chat Completions stream", e.name)
		}
		m := e.decode(t)
		if m["object"] != "chat.completion.chunk" {
			t.Fatalf("chunk object %v", m["object"])
		}
		if m["usage"] != nil {
			ct.usage = true
		}
		for _, c := range m["choices"].([]any) {
			ch := c.(map[string]any)
			if f, ok := ch["finish_reason"].(string); ok {
				ct.finish = f
			}
			d := ch["delta"].(map[string]any)
			if s, ok := d["content"].(string); ok {
				ct.text += s
			}
			calls, _ := d["tool_calls"].([]any)
			for _, tc := range calls {
				call := tc.(map[string]any)
				if call["index"].(float64) != 0 {
					t.Fatalf("tool call index %v", call["index"])
				}
				if id, ok := call["id"].(string); ok {
					ct.toolID = id
				}
				fn := call["function"].(map[string]any)
				if n, ok := fn["name"].(string); ok {
					ct.toolName += n
				}
				ct.toolArgs += fn["arguments"].(string)
			}
		}
	}
	return ct
}

// chatStream posts a streamed Chat Completions request with qwenTools.
func chatStream(t *testing.T, s *Server, messages string) chatTurn {
	t.Helper()
	body := `{"model":"mock-model","stream":true,"stream_options":{"include_usage":true},"tools":` + qwenTools + `,"messages":` + messages + `}`
	resp := post(t, s, "/v1/chat/completions", body, http.StatusOK)
	return assembleChat(t, parseSSE(t, resp.Body))
}

// sysCwd is a system message naming the cwd the way qwen-code does.
const sysCwd = `{"role":"system","content":"I'm currently working in the directory: /tmp/q\nMore text."}`

func TestChatHello(t *testing.T) {
	s := startServer(t)
	ct := chatStream(t, s, `[`+sysCwd+`,{"role":"user","content":[{"type":"text","text":"<system-reminder>ask</system-reminder>"},{"type":"text","text":"hi there"}]}]`)
	if ct.text != HelloText || ct.finish != "stop" || ct.toolName != "" || !ct.usage {
		t.Fatalf("got %+v", ct)
	}
	if r := lastRequest(t, s); r.API != "chat" || r.LastUserText != "hi there" || r.Model != "mock-model" {
		t.Fatalf("logged %+v", r)
	}
}

func TestChatToolCallsFollowTheAgentsTools(t *testing.T) {
	s := startServer(t)
	cases := []struct {
		prompt, tool string
		want         map[string]any
	}{
		{"write hello", "write_file", map[string]any{"file_path": "/tmp/q/hello.txt", "content": FileContent}},
		{"bash it", "run_shell_command", map[string]any{"command": "echo hi"}},
		{"Plan this", "todo_write", map[string]any{"todos": []any{
			map[string]any{"id": "1", "content": "Say hello", "status": "pending"},
			map[string]any{"id": "2", "content": "Wrap up", "status": "pending"}}}},
	}
	for _, c := range cases {
		ct := chatStream(t, s, `[`+sysCwd+`,{"role":"user","content":"`+c.prompt+`"}]`)
		if ct.toolName != c.tool || ct.finish != "tool_calls" || !strings.HasPrefix(ct.toolID, "call_") {
			t.Fatalf("%q: got %+v", c.prompt, ct)
		}
		want, _ := json.Marshal(c.want)
		if !jsonEqual(t, ct.toolArgs, string(want)) {
			t.Errorf("%q: arguments %s, want %s", c.prompt, ct.toolArgs, want)
		}
	}
}

func TestChatAskFillsTheQuestionSchema(t *testing.T) {
	s := startServer(t)
	ct := chatStream(t, s, `[{"role":"user","content":"ask"}]`)
	var want map[string]any
	_ = json.Unmarshal([]byte(AskInput), &want)
	wantJSON, _ := json.Marshal(want)
	if ct.toolName != "ask_user_question" || !jsonEqual(t, ct.toolArgs, string(wantJSON)) {
		t.Fatalf("got %s %s", ct.toolName, ct.toolArgs)
	}
}

func TestChatToolResultEndsTheTurn(t *testing.T) {
	s := startServer(t)
	msgs := `[{"role":"user","content":"bash"},
	 {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"run_shell_command","arguments":"{}"}}]},
	 {"role":"tool","tool_call_id":"call_1","content":"Output: hi"}]`
	ct := chatStream(t, s, msgs)
	if ct.text != "done: run_shell_command: Output: hi" || ct.finish != "stop" || ct.toolName != "" {
		t.Fatalf("got %+v", ct)
	}
}

func TestChatNonStreamingAndModels(t *testing.T) {
	s := startServer(t)
	body := `{"model":"m","tools":` + qwenTools + `,"messages":[{"role":"user","content":"bash"}]}`
	m := decodeBody(t, post(t, s, "/v1/chat/completions", body, http.StatusOK))
	ch := m["choices"].([]any)[0].(map[string]any)
	msg := ch["message"].(map[string]any)
	call := msg["tool_calls"].([]any)[0].(map[string]any)
	if ch["finish_reason"] != "tool_calls" || str(call, "function", "name") != "run_shell_command" {
		t.Fatalf("got %v", m)
	}
	resp, err := http.Get(s.URL() + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	list := decodeBody(t, resp)
	data := list["data"].([]any)
	if list["object"] != "list" || len(data) != len(DefaultModels) || data[0].(map[string]any)["id"] != DefaultModels[0] {
		t.Fatalf("models %v", list)
	}
}
