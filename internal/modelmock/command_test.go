package modelmock

import (
	"encoding/json"
	"testing"
)

// A command the prompt names in backquotes is what the shell tool runs
// (in the background when the prompt says so); words inside the quotes
// choose no tool.
func TestPromptCommand(t *testing.T) {
	bash := tool{name: "Bash", schema: map[string]any{"type": "object"}}
	exec := tool{name: "exec_command", schema: map[string]any{"type": "object", "required": []any{"cmd"},
		"properties": map[string]any{"cmd": map[string]any{"type": "string"}}}}
	write := tool{name: "Write", schema: map[string]any{"type": "object"}}
	cases := []struct {
		text  string
		tools []tool
		want  map[string]any
	}{
		{"run `for i in 1 2; do echo $i; sleep 1; done`", []tool{write, bash}, map[string]any{"command": "for i in 1 2; do echo $i; sleep 1; done", "description": "Print hi"}},
		{"run `sleep 2` in the background", []tool{bash}, map[string]any{"command": "sleep 2", "description": "Print hi", "run_in_background": true}},
		{"run `write x`", []tool{write, exec}, map[string]any{"cmd": "write x"}},
		{"bash", []tool{bash}, map[string]any{"command": "echo hi", "description": "Print hi"}},
	}
	for _, c := range cases {
		r := decide(turnState{text: c.text}, c.tools)
		var got map[string]any
		if r.kind != "tool" || json.Unmarshal([]byte(r.input), &got) != nil || !jsonEqual(t, r.input, mustJSON(c.want)) {
			t.Errorf("%q: %s %s %s, want %v", c.text, r.kind, r.tool.name, r.input, c.want)
		}
	}
}

// "elicitation" calls an MCP server's form tool, as the agent names it,
// and not its URL or async siblings.
func TestPromptElicitationTool(t *testing.T) {
	mcp := func(n string) tool {
		return tool{name: "mcp__everything__" + n, schema: map[string]any{"type": "object"}}
	}
	tools := []tool{mcp("trigger-url-elicitation"), mcp("trigger-elicitation-request-async"), mcp("trigger-elicitation-request"), {name: "AskUserQuestion"}}
	r := decide(turnState{text: "trigger an elicitation request"}, tools)
	if r.kind != "tool" || r.tool.name != "mcp__everything__trigger-elicitation-request" || r.input != "{}" {
		t.Errorf("%s %s %s", r.kind, r.tool.name, r.input)
	}
	if r := decide(turnState{text: "trigger an elicitation request"}, tools[3:]); r.kind != "text" {
		t.Errorf("without the tool: %s %s", r.kind, r.tool.name)
	}
}
