package modelmock

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// claudeTools is a Claude Code-like tool list.
const claudeTools = `[
 {"name":"AskUserQuestion","input_schema":{"type":"object"}},
 {"name":"Bash","input_schema":{"type":"object"}},
 {"name":"TodoWrite","input_schema":{"type":"object"}},
 {"name":"Write","input_schema":{"type":"object"}}]`

// anthropicTurn is the result of assembling a Messages API stream.
type anthropicTurn struct {
	events    []string
	text      string
	toolName  string
	toolInput string
	stop      string
}

// assembleAnthropic reads a Messages stream the way an SDK does.
func assembleAnthropic(t *testing.T, evs []sseEvent) anthropicTurn {
	t.Helper()
	var at anthropicTurn
	open := map[float64]string{}
	for _, e := range evs {
		m := e.decode(t)
		if m["type"] != e.name {
			t.Fatalf("event %q carries type %v", e.name, m["type"])
		}
		at.events = append(at.events, e.name)
		idx, _ := m["index"].(float64)
		switch e.name {
		case "content_block_start":
			cb := m["content_block"].(map[string]any)
			open[idx] = cb["type"].(string)
			if cb["type"] == "tool_use" {
				at.toolName = cb["name"].(string)
				if !strings.HasPrefix(cb["id"].(string), "toolu_") {
					t.Errorf("tool id %v", cb["id"])
				}
			}
		case "content_block_delta":
			d := m["delta"].(map[string]any)
			switch {
			case open[idx] == "text" && d["type"] == "text_delta":
				at.text += d["text"].(string)
			case open[idx] == "tool_use" && d["type"] == "input_json_delta":
				at.toolInput += d["partial_json"].(string)
			default:
				t.Fatalf("delta %v in a %q block", d["type"], open[idx])
			}
		case "content_block_stop":
			if _, ok := open[idx]; !ok {
				t.Fatalf("stop of block %v that never started", idx)
			}
			delete(open, idx)
		case "message_delta":
			at.stop = str(m, "delta", "stop_reason")
		}
	}
	if len(open) != 0 {
		t.Fatalf("blocks left open: %v", open)
	}
	if at.events[0] != "message_start" || at.events[len(at.events)-1] != "message_stop" {
		t.Fatalf("events %v: want message_start first, message_stop last", at.events)
	}
	return at
}

// anthropicStream posts a streamed Messages request and assembles it.
func anthropicStream(t *testing.T, s *Server, system, messages string) anthropicTurn {
	t.Helper()
	body := `{"model":"claude-test","stream":true,"max_tokens":100,"system":` + system +
		`,"tools":` + claudeTools + `,"messages":` + messages + `}`
	resp := post(t, s, "/v1/messages", body, http.StatusOK)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	return assembleAnthropic(t, parseSSE(t, resp.Body))
}

func TestAnthropicHelloStreamsTextInSeveralDeltas(t *testing.T) {
	s := startServer(t)
	at := anthropicStream(t, s, `"be brief"`, `[{"role":"user","content":"hello"}]`)
	if at.text != HelloText || at.stop != "end_turn" || at.toolName != "" {
		t.Fatalf("got text %q stop %q tool %q", at.text, at.stop, at.toolName)
	}
	deltas := strings.Count(strings.Join(at.events, ","), "content_block_delta")
	if deltas < 3 {
		t.Fatalf("%d deltas, want several", deltas)
	}
	r := lastRequest(t, s)
	if r.Method != "POST" || r.Path != "/v1/messages" || r.LastUserText != "hello" || r.Reply != "text" || !r.Stream {
		t.Fatalf("logged %+v", r)
	}
}

func TestAnthropicAskCallsAskUserQuestion(t *testing.T) {
	s := startServer(t)
	msgs := `[{"role":"user","content":[{"type":"text","text":"<system-reminder>write bash plan</system-reminder>"},{"type":"text","text":"Please ASK me"}]}]`
	at := anthropicStream(t, s, `[{"type":"text","text":"x"}]`, msgs)
	if at.toolName != "AskUserQuestion" || at.stop != "tool_use" {
		t.Fatalf("tool %q stop %q", at.toolName, at.stop)
	}
	if !jsonEqual(t, at.toolInput, AskInput) {
		t.Fatalf("input %s", at.toolInput)
	}
	if got := lastRequest(t, s).LastUserText; got != "Please ASK me" {
		t.Fatalf("last user text %q", got)
	}
}

func TestAnthropicWriteUsesTheCwdOfTheSystemMessage(t *testing.T) {
	s := startServer(t)
	// As Claude Code sends it: the environment in a system message after
	// the user's.
	msgs := `[{"role":"user","content":[{"type":"text","text":"write a file"}]},
	 {"role":"system","content":[{"type":"text","text":" - Primary working directory: /tmp/proj\n"}]}]`
	at := anthropicStream(t, s, `"sys"`, msgs)
	var in map[string]string
	if err := json.Unmarshal([]byte(at.toolInput), &in); err != nil {
		t.Fatal(err)
	}
	if at.toolName != "Write" || in["file_path"] != "/tmp/proj/hello.txt" || in["content"] != FileContent {
		t.Fatalf("tool %q input %v", at.toolName, in)
	}
}

func TestAnthropicBashAndPlan(t *testing.T) {
	s := startServer(t)
	at := anthropicStream(t, s, `"sys"`, `[{"role":"user","content":"run bash please"}]`)
	if at.toolName != "Bash" || !strings.Contains(at.toolInput, `"echo hi"`) {
		t.Fatalf("bash: %q %s", at.toolName, at.toolInput)
	}
	at = anthropicStream(t, s, `"sys"`, `[{"role":"user","content":"make a plan"}]`)
	if at.toolName != "TodoWrite" || !strings.Contains(at.toolInput, `"activeForm"`) {
		t.Fatalf("plan: %q %s", at.toolName, at.toolInput)
	}
}

func TestAnthropicToolResultEndsTheTurn(t *testing.T) {
	s := startServer(t)
	msgs := `[{"role":"user","content":"write it"},
	 {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Write","input":{}}]},
	 {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"File created\nmore"}]},{"type":"text","text":"write again"}]}]`
	at := anthropicStream(t, s, `"sys"`, msgs)
	if at.text != "done: Write: File created" || at.stop != "end_turn" || at.toolName != "" {
		t.Fatalf("got %q stop %q tool %q", at.text, at.stop, at.toolName)
	}
	if r := lastRequest(t, s); !r.ToolResult || r.Reply != "done" {
		t.Fatalf("logged %+v", r)
	}
}

func TestAnthropicKeywordWithoutItsToolIsText(t *testing.T) {
	s := startServer(t)
	resp := post(t, s, "/v1/messages", `{"model":"m","stream":true,"messages":[{"role":"user","content":"ask"}]}`, http.StatusOK)
	at := assembleAnthropic(t, parseSSE(t, resp.Body))
	if at.text != HelloText || at.toolName != "" {
		t.Fatalf("got %q tool %q", at.text, at.toolName)
	}
}

func TestAnthropicNonStreaming(t *testing.T) {
	s := startServer(t)
	body := `{"model":"m","max_tokens":10,"tools":` + claudeTools + `,"messages":[{"role":"user","content":"bash"}]}`
	m := decodeBody(t, post(t, s, "/v1/messages", body, http.StatusOK))
	if m["type"] != "message" || m["stop_reason"] != "tool_use" {
		t.Fatalf("got %v", m)
	}
	content := m["content"].([]any)
	tu := content[len(content)-1].(map[string]any)
	if tu["type"] != "tool_use" || tu["name"] != "Bash" || tu["input"].(map[string]any)["command"] != "echo hi" {
		t.Fatalf("tool_use %v", tu)
	}
	m = decodeBody(t, post(t, s, "/v1/messages", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, http.StatusOK))
	if c := m["content"].([]any)[0].(map[string]any); c["text"] != HelloText || m["stop_reason"] != "end_turn" {
		t.Fatalf("got %v", m)
	}
}

func TestCountTokensAndUnknownPaths(t *testing.T) {
	s := startServer(t)
	m := decodeBody(t, post(t, s, "/v1/messages/count_tokens", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, http.StatusOK))
	if n, ok := m["input_tokens"].(float64); !ok || n < 1 {
		t.Fatalf("count_tokens %v", m)
	}
	m = decodeBody(t, post(t, s, "/v1/nothing", `{}`, http.StatusNotFound))
	if m["type"] != "error" || str(m, "error", "type") != "not_found_error" {
		t.Fatalf("unknown path answered %v", m)
	}
	if r := lastRequest(t, s); r.API != "unknown" || r.Path != "/v1/nothing" {
		t.Fatalf("logged %+v", r)
	}
	post(t, s, "/v1/messages", `not json`, http.StatusBadRequest)
	post(t, s, "/v1/messages", `{"messages":[]}`, http.StatusBadRequest)
}
