package acpconn

import (
	"encoding/json"
	"testing"
)

// The escape is shown inert (␛ ␇), not dropped: the diff is what the user
// approves (issue 27, case 15).
func TestToolCallDiffsAreWholeAndSanitized(t *testing.T) {
	params, _ := json.Marshal(map[string]any{"sessionId": "s1", "update": map[string]any{
		"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "Edit", "kind": "edit",
		"content": []any{
			map[string]any{"type": "diff", "path": "/r/a.go", "oldText": "one\r\ntwo\r\n", "newText": "one\r\n2 \x1b]52;c;eA==\x07\r\n"},
			map[string]any{"type": "diff", "path": "/r/new.go", "newText": "x\n"},
			map[string]any{"type": "terminal", "terminalId": "term-7"},
		}}})
	ev, _, err := decodeUpdate(params)
	if err != nil {
		t.Fatal(err)
	}
	tc := ev.(ToolCall)
	want := []Diff{{Path: "/r/a.go", Old: "one\r\ntwo\r\n", New: "one\r\n2 ␛]52;c;eA==␇\r\n"}, {Path: "/r/new.go", New: "x\n"}}
	if len(tc.Diffs) != 2 || tc.Diffs[0] != want[0] || tc.Diffs[1] != want[1] {
		t.Fatalf("diffs %q, want %q", tc.Diffs, want)
	}
	if len(tc.Content) != 3 || len(tc.Terminals) != 1 || tc.Terminals[0] != "term-7" {
		t.Fatalf("content %q, terminals %q", tc.Content, tc.Terminals)
	}
}
