package hostile

import (
	"encoding/json"
	"io"
	"os"
	"regexp"
)

// turn plays one prompt turn and answers the prompt with a hostile stop
// reason.
func (a *agent) turn(promptID *json.RawMessage) {
	sid := Short("session")
	if play := fileScenarios[a.scenario]; play != nil {
		play(a, sid)
		a.reply(promptID, map[string]any{"stopReason": "end_turn"})
		return
	}
	update := func(u map[string]any) {
		a.notify("session/update", map[string]any{"sessionId": sid, "update": u})
	}
	text := func(field string) map[string]any { return map[string]any{"type": "text", "text": Payload(field)} }
	update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": text("message chunk")})
	update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "\n\n# " + Payload("heading") + "\n\n- " + Payload("list item") + "\n\n`" + Short("code") + "`\n\n"}})
	update(map[string]any{"sessionUpdate": "agent_thought_chunk", "content": text("thought")})
	update(map[string]any{"sessionUpdate": "user_message_chunk", "content": text("user chunk")})
	update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "resource_link", "name": Payload("link name"), "uri": "https://" + EvilHost + "/" + Short("uri")}})
	tool := Short("tool")
	line := 7
	old := Payload("old text")
	update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": tool, "title": Payload("tool title"), "kind": "edit", "status": "pending",
		"content": []any{
			map[string]any{"type": "content", "content": text("tool content")},
			map[string]any{"type": "diff", "path": Payload("diff path"), "oldText": old, "newText": Payload("new text")},
			map[string]any{"type": "terminal", "terminalId": Short("terminal")},
		},
		"locations": []any{map[string]any{"path": Payload("location"), "line": line}},
	})
	update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": tool, "status": "in_progress", "title": Payload("tool title update")})
	update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": tool, "kind": Short("kind"), "status": Short("status")})
	// The agents' _meta terminal extension (claude-agent-acp, codex-acp):
	// command output and exit reported in the tool call's _meta.
	term := Short("meta terminal")
	update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": tool, "_meta": map[string]any{
		"terminal_info":   map[string]any{"terminal_id": term},
		"terminal_output": map[string]any{"terminal_id": term, "data": Payload("meta terminal output") + "\n"}}})
	update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": tool, "_meta": map[string]any{
		"terminal_output_delta": map[string]any{"terminal_id": term, "data": Payload("meta terminal delta")},
		"terminal_exit":         map[string]any{"terminal_id": term, "exit_code": nil, "signal": Payload("signal")},
		"claudeCode":            map[string]any{"toolResponse": map[string]any{"elapsedTimeSeconds": 3}}}})
	update(map[string]any{"sessionUpdate": "plan", "entries": []any{
		map[string]any{"content": Payload("plan entry"), "priority": "high", "status": "pending"},
		map[string]any{"content": "plain entry", "priority": Short("priority"), "status": Short("status")},
	}})
	update(map[string]any{"sessionUpdate": "available_commands_update", "availableCommands": []any{
		map[string]any{"name": Short("command"), "description": Payload("command description"), "input": map[string]any{"hint": Payload("hint")}},
	}})
	update(map[string]any{"sessionUpdate": "current_mode_update", "currentModeId": Short("mode b")})
	update(map[string]any{"sessionUpdate": "config_option_update", "configOptions": configOptions()})
	update(map[string]any{"sessionUpdate": "session_info_update", "title": Payload("session title")})
	update(map[string]any{"sessionUpdate": "usage_update", "used": 10, "size": 100, "cost": map[string]any{"amount": 1.5, "currency": Short("currency")}})
	update(map[string]any{"sessionUpdate": Short("unknown kind")})
	a.notify("elicitation/complete", map[string]any{"elicitationId": Payload("never issued")})
	if a.scenario == ScenarioExit {
		io.WriteString(a.stderr, stderrBytes())
		os.Exit(3)
	}
	if a.scenario != ScenarioNoQuest {
		a.questions(sid, tool)
	}
	io.WriteString(a.stderr, stderrBytes())
	a.reply(promptID, map[string]any{"stopReason": Payload("stop reason")})
}

// questions asks for a permission, a form and two URLs, each with hostile
// text everywhere, and reports the URL flow complete.
func (a *agent) questions(sid, tool string) {
	a.request("session/request_permission", map[string]any{"sessionId": sid,
		"toolCall": map[string]any{"toolCallId": tool, "title": Payload("permission tool")},
		"options": []any{
			map[string]any{"optionId": Short("allow"), "name": Payload("allow name"), "kind": "allow_once"},
			map[string]any{"optionId": Short("reject"), "name": Payload("reject name"), "kind": "reject_once"},
		}})
	a.request("elicitation/create", map[string]any{"sessionId": sid, "toolCallId": tool, "mode": "form",
		"message": Payload("form message"), "requestedSchema": FormSchema()})
	eid := Short("elicitation")
	a.request("elicitation/create", map[string]any{"sessionId": sid, "mode": "url", "message": Payload("url message"),
		"elicitationId": eid, "url": "https://pay\u200bpal.com/\u202egnp.exe?q=" + Short("query")})
	a.request("elicitation/create", map[string]any{"sessionId": sid, "mode": "url", "message": Payload("raw url message"),
		"elicitationId": Short("elicitation 2"), "url": "https://" + EvilHost + "/" + Payload("url")})
	a.notify("elicitation/complete", map[string]any{"elicitationId": eid})
}

// FormSchema is a form with hostile text in every place a schema has text.
func FormSchema() json.RawMessage {
	pattern := "^" + regexp.QuoteMeta(Short("pattern")) + "$" // the raw bytes stay; it compiles
	s := map[string]any{
		"type": "object", "title": Payload("schema title"), "description": Payload("schema description"),
		"properties": map[string]any{
			"name": map[string]any{"type": "string", "title": Payload("name title"), "description": Payload("name description"),
				"pattern": pattern, "default": Payload("name default"), "minLength": 1},
			"choice": map[string]any{"type": "string", "title": Payload("choice title"), "default": Short("one"),
				"oneOf": []any{map[string]any{"const": Short("one"), "title": Payload("one title")}, map[string]any{"const": "two", "title": Payload("two title")}}},
			"legacy": map[string]any{"type": "string", "enum": []any{Short("l1"), "l2"}, "enumNames": []any{Payload("l1 name"), Payload("l2 name")}},
			"many": map[string]any{"type": "array", "title": Payload("many title"), "items": map[string]any{"anyOf": []any{
				map[string]any{"const": Short("m1"), "title": Payload("m1 title")}, map[string]any{"const": "m2", "title": Payload("m2 title")}}}},
			"count":      map[string]any{"type": "integer", "title": Payload("count title"), "minimum": 1, "maximum": 3, "default": 2},
			Short("key"): map[string]any{"type": "boolean", "description": Payload("key description")},
		},
		"required": []any{"name", "choice"},
	}
	b, _ := json.Marshal(s)
	return b
}
