package uitest

import (
	"os"
	"path/filepath"
)

func init() {
	// claude-auto speaks as claude-agent-acp 0.101.0 does in Auto (or
	// bypassPermissions) mode: a Bash tool call, pending, with its
	// terminal; no permission, no in_progress; the output and the exit
	// when the command is done.
	Scripts["claude-auto"] = func(a *RawAgent) {
		a.ServeTurns(func(m, p map[string]any) {
			const id = "toolu_1"
			a.Say("s1", "m1", "Calling Bash.")
			a.Update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "status": "pending", "title": "Terminal", "kind": "execute",
				"content": []any{map[string]any{"type": "terminal", "terminalId": id}},
				"_meta":   map[string]any{"claudeCode": map[string]any{"toolName": "Bash"}, "terminal_info": map[string]any{"terminal_id": id}}})
			a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "title": "sleep 3; echo hi"})
			step("1")
			a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id,
				"_meta": map[string]any{"terminal_output_delta": map[string]any{"terminal_id": id, "data": "hi"}}})
			a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
				"_meta": map[string]any{"claudeCode": map[string]any{"toolName": "Bash"}, "terminal_exit": map[string]any{"terminal_id": id, "exit_code": 0, "signal": nil}}})
			a.Say("s1", "m2", "done: Bash: hi")
			a.Reply(m, map[string]any{"stopReason": "end_turn"})
		})
	}
}

func init() {
	// gemini-write speaks as gemini-cli 0.61.0 does when it writes a new
	// file: it reads the path, names its tool call first in a permission
	// (with the diff), reads again, writes with fs/write_text_file, and
	// only then reports the tool call, completed, with the same diff.
	Scripts["gemini-write"] = func(a *RawAgent) {
		a.ServeTurns(func(m, p map[string]any) {
			wd, _ := os.Getwd()
			path := filepath.Join(wd, "hello.txt")
			const id, text = "write_file__write_file_1_0", "hello from the mock model\n"
			call := map[string]any{"toolCallId": id, "title": "Writing to hello.txt", "kind": "edit",
				"content":   []any{map[string]any{"type": "diff", "path": path, "oldText": "", "newText": text, "_meta": map[string]any{"kind": "add"}}},
				"locations": []any{map[string]any{"path": path}}}
			a.Say("s1", "", "Calling write_file.")
			a.Request("fs/read_text_file", map[string]any{"sessionId": "s1", "path": path})
			perm := map[string]any{"status": "pending"}
			for k, v := range call {
				perm[k] = v
			}
			r := a.Request("session/request_permission", map[string]any{"sessionId": "s1", "toolCall": perm,
				"options": []any{map[string]any{"optionId": "proceed_once", "name": "Allow", "kind": "allow_once"}, map[string]any{"optionId": "cancel", "name": "Reject", "kind": "reject_once"}}})
			if res, _ := r["result"].(map[string]any); res != nil {
				if out, _ := res["outcome"].(map[string]any); out["optionId"] == "proceed_once" {
					a.Request("fs/read_text_file", map[string]any{"sessionId": "s1", "path": path})
					a.Request("fs/write_text_file", map[string]any{"sessionId": "s1", "path": path, "content": text})
					call["sessionUpdate"], call["status"] = "tool_call_update", "completed"
					a.Update("s1", call)
				}
			}
			a.Say("s1", "", "done: write_file")
			a.Reply(m, map[string]any{"stopReason": "end_turn"})
		})
	}
}
