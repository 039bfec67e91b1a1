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
