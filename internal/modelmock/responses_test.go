package modelmock

import (
	"net/http"
	"strings"
	"testing"
)

// codexTools is a Codex-like Responses tool list (cut down from what
// codex-acp 0.16.0 sends), with a freeform apply_patch tool.
const codexTools = `[
 {"type":"function","name":"exec_command","parameters":{"type":"object","properties":{"cmd":{"type":"string"},"workdir":{"type":"string"}},"required":["cmd"]}},
 {"type":"function","name":"write_stdin","parameters":{"type":"object","properties":{"chars":{"type":"string"}},"required":["chars"]}},
 {"type":"function","name":"update_plan","parameters":{"type":"object","properties":{"explanation":{"type":"string"},"plan":{"type":"array","items":{"type":"object","properties":{"status":{"type":"string","enum":["pending","in_progress","completed"]},"step":{"type":"string"}},"required":["step","status"]}}},"required":["plan"]}},
 {"type":"function","name":"request_user_input","parameters":{"type":"object","properties":{"questions":{"type":"array","items":{"type":"object","properties":{"header":{"type":"string"},"id":{"type":"string"},"options":{"type":"array","items":{"type":"object","properties":{"description":{"type":"string"},"label":{"type":"string"}},"required":["label","description"]}},"question":{"type":"string"}},"required":["id","header","question","options"]}}},"required":["questions"]}},
 {"type":"custom","name":"apply_patch","format":{"type":"grammar"}},
 {"type":"web_search"}]`

// responsesTurn is the result of assembling a Responses stream.
type responsesTurn struct {
	events                     []string
	text, callType, name, args string
	completed                  map[string]any
}

// assembleResponses reads a Responses stream the way an SDK does.
func assembleResponses(t *testing.T, evs []sseEvent) responsesTurn {
	t.Helper()
	var rt responsesTurn
	for i, e := range evs {
		m := e.decode(t)
		if m["type"] != e.name {
			t.Fatalf("event %q carries type %v", e.name, m["type"])
		}
		if int(m["sequence_number"].(float64)) != i {
			t.Fatalf("event %d has sequence_number %v", i, m["sequence_number"])
		}
		rt.events = append(rt.events, e.name)
		switch e.name {
		case "response.output_text.delta":
			rt.text += m["delta"].(string)
		case "response.output_item.added":
			item := m["item"].(map[string]any)
			if item["type"] != "message" {
				rt.callType, rt.name = item["type"].(string), item["name"].(string)
			}
		case "response.function_call_arguments.delta", "response.custom_tool_call_input.delta":
			rt.args += m["delta"].(string)
		case "response.output_item.done":
			item := m["item"].(map[string]any)
			if item["type"] == "function_call" && item["arguments"] != rt.args {
				t.Fatalf("done arguments %v, deltas %q", item["arguments"], rt.args)
			}
			if item["type"] == "custom_tool_call" && item["input"] != rt.args {
				t.Fatalf("done input %v, deltas %q", item["input"], rt.args)
			}
		case "response.completed":
			rt.completed = m["response"].(map[string]any)
		}
	}
	if rt.events[0] != "response.created" || rt.completed == nil || rt.events[len(rt.events)-1] != "response.completed" {
		t.Fatalf("events %v", rt.events)
	}
	if rt.completed["status"] != "completed" || rt.completed["usage"] == nil {
		t.Fatalf("completed response %v", rt.completed)
	}
	return rt
}

// responsesStream posts a streamed Responses request with codexTools.
func responsesStream(t *testing.T, s *Server, input string) responsesTurn {
	t.Helper()
	body := `{"model":"mock-model","stream":true,"instructions":"be good","tools":` + codexTools + `,"input":` + input + `}`
	resp := post(t, s, "/v1/responses", body, http.StatusOK)
	return assembleResponses(t, parseSSE(t, resp.Body))
}

// codexInput is Codex's input: the environment, then the user's words.
func codexInput(prompt string) string {
	return `[{"type":"message","role":"developer","content":[{"type":"input_text","text":"rules"}]},
	 {"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n <cwd>/tmp/c</cwd>\n</environment_context>"}]},
	 {"type":"message","role":"user","content":[{"type":"input_text","text":"` + prompt + `"}]}]`
}

func TestResponsesHello(t *testing.T) {
	s := startServer(t)
	rt := responsesStream(t, s, codexInput("hello"))
	if rt.text != HelloText || rt.callType != "" {
		t.Fatalf("got %+v", rt)
	}
	if strings.Count(strings.Join(rt.events, ","), "output_text.delta") < 3 {
		t.Fatalf("events %v: want several deltas", rt.events)
	}
	if r := lastRequest(t, s); r.API != "responses" || r.LastUserText != "hello" {
		t.Fatalf("logged %+v", r)
	}
	// A plain string input is one user message.
	rt = responsesStream(t, s, `"bash please"`)
	if rt.name != "exec_command" || !jsonEqual(t, rt.args, `{"cmd":"echo hi"}`) {
		t.Fatalf("got %+v", rt)
	}
}

func TestResponsesToolCalls(t *testing.T) {
	s := startServer(t)
	rt := responsesStream(t, s, codexInput("write"))
	if rt.callType != "custom_tool_call" || rt.name != "apply_patch" || !strings.Contains(rt.args, "*** Add File: /tmp/c/hello.txt") {
		t.Fatalf("write: %+v", rt)
	}
	rt = responsesStream(t, s, codexInput("plan"))
	want := `{"plan":[{"step":"Say hello","status":"pending"},{"step":"Wrap up","status":"pending"}]}`
	if rt.callType != "function_call" || rt.name != "update_plan" || !jsonEqual(t, rt.args, want) {
		t.Fatalf("plan: %+v", rt)
	}
	rt = responsesStream(t, s, codexInput("ask"))
	want = `{"questions":[{"id":"colour","header":"Colour","question":"Which colour?","options":[{"label":"Red","description":"warm"},{"label":"Blue","description":"cool"}]}]}`
	if rt.name != "request_user_input" || !jsonEqual(t, rt.args, want) {
		t.Fatalf("ask: %+v", rt)
	}
}

func TestResponsesToolOutputEndsTheTurn(t *testing.T) {
	s := startServer(t)
	input := `[{"type":"message","role":"user","content":[{"type":"input_text","text":"bash"}]},
	 {"type":"function_call","call_id":"call_9","name":"exec_command","arguments":"{}"},
	 {"type":"function_call_output","call_id":"call_9","output":"hi\n"}]`
	rt := responsesStream(t, s, input)
	if rt.text != "done: exec_command: hi" || rt.callType != "" {
		t.Fatalf("got %+v", rt)
	}
	if r := lastRequest(t, s); !r.ToolResult {
		t.Fatalf("logged %+v", r)
	}
}

func TestResponsesNonStreaming(t *testing.T) {
	s := startServer(t)
	body := `{"model":"m","tools":` + codexTools + `,"input":` + codexInput("bash") + `}`
	m := decodeBody(t, post(t, s, "/v1/responses", body, http.StatusOK))
	out := m["output"].([]any)
	call := out[len(out)-1].(map[string]any)
	if m["status"] != "completed" || call["type"] != "function_call" || call["name"] != "exec_command" {
		t.Fatalf("got %v", m)
	}
}
