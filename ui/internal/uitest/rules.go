package uitest

func init() {
	// claude-permission asks permission to run its prompt's text as a
	// command, as claude-agent-acp asks (toolCall.name Bash, rawInput
	// {command}, options allow_once, allow_always and reject_once), and
	// says "COMMAND: chose OPTION" (or "COMMAND: cancelled").
	Scripts["claude-permission"] = func(a *RawAgent) {
		a.ServeTurns(func(m, p map[string]any) {
			cmd := promptText(p)
			r := a.Request("session/request_permission", map[string]any{"sessionId": "s1",
				"toolCall": map[string]any{"toolCallId": "toolu_" + cmd, "name": "Bash", "status": "pending", "title": cmd, "kind": "execute",
					"rawInput": map[string]any{"command": cmd, "description": "Run " + cmd}},
				"options": []any{map[string]any{"optionId": "allow-once", "name": "Yes", "kind": "allow_once"},
					map[string]any{"optionId": "allow-always", "name": "Yes, and don't ask again for " + cmd + " commands", "kind": "allow_always"},
					map[string]any{"optionId": "reject", "name": "No", "kind": "reject_once"}}})
			res, _ := r["result"].(map[string]any)
			out, _ := res["outcome"].(map[string]any)
			said := "cancelled"
			if id, ok := out["optionId"].(string); ok {
				said = "chose " + id
			}
			a.Say("s1", "", cmd+": "+said)
			a.Reply(m, map[string]any{"stopReason": "end_turn"})
		})
	}
}

// promptText is the text of a session/prompt's first text block.
func promptText(p map[string]any) string {
	blocks, _ := p["prompt"].([]any)
	for _, b := range blocks {
		if m, ok := b.(map[string]any); ok && m["type"] == "text" {
			s, _ := m["text"].(string)
			return s
		}
	}
	return ""
}
