package uitest

func init() {
	// claude-auto speaks as claude-agent-acp 0.101.0 does in Auto (or
	// bypassPermissions) mode: a Bash tool call, pending, with its
	// terminal; no permission, no in_progress; the output and the exit
	// when the command is done.
	Scripts["claude-auto"] = func(a *RawAgent) {
		a.Serve(nil, func(m, p map[string]any) {
			switch m["method"] {
			case "session/new":
				a.Reply(m, map[string]any{"sessionId": "s1"})
			case "session/prompt":
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
			}
		})
	}
}
