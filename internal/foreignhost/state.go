package foreignhost

// state is the snapshot of a channel: the session or one of its chats.
// h.mu is held.
func (h *Host) state(channel string) (map[string]any, error) {
	if channel == h.SessionURI() {
		return h.sessionState(), nil
	}
	for _, c := range h.chats {
		if c.uri == channel {
			return h.chatState(c), nil
		}
	}
	return nil, errUnknownChannel
}

// sessionState is the session with its chats, its default chat and what
// needs input (a chat's request and a tool confirmation), plus fields a
// client does not read and fields of unexpected types.
func (h *Host) sessionState() map[string]any {
	st := map[string]any{
		"provider": "pi", "title": "Pi session", "status": h.odd("input-needed", 24), "lifecycle": "ready",
		"activity":           map[string]any{"text": "asking"},
		"activeClients":      []any{map[string]any{"clientId": "vscode-1", "displayName": "VS Code", "tools": []any{map[string]any{"name": "read"}}}},
		"workingDirectories": []string{"file:///work"},
		"customizations":     []any{map[string]any{"type": "plugin", "uri": "file:///p", "enabled": h.odd("yes", true)}},
		"config":             map[string]any{"schema": map[string]any{}, "values": map[string]any{"autoApprove": h.odd(3, true)}},
		"_meta":              map[string]any{"git": map[string]any{"branch": "main", "dirty": h.odd("yes", true)}},
	}
	if h.o.NoChats {
		return st
	}
	var chats []any
	for _, c := range h.chats {
		chats = append(chats, map[string]any{"resource": c.uri, "title": c.title, "status": h.odd("busy", 24), "modifiedAt": h.odd(1731400000123, "2026-11-12T10:04:31Z"),
			"interactivity": "full", "origin": map[string]any{"kind": "user"}})
	}
	needed := []any{map[string]any{"id": "need-tool", "chat": h.chats[0].uri, "kind": "toolConfirmation", "turnId": h.chats[0].turn,
		"toolCall": map[string]any{"toolCallId": "tc-1", "status": "pending-confirmation", "toolName": "bash"}}}
	for _, c := range h.chats {
		for _, r := range c.reqs {
			if r.response == "" {
				needed = append(needed, h.needed(c, r))
			}
		}
	}
	st["chats"], st["defaultChat"], st["inputNeeded"] = chats, h.chats[0].uri, needed
	return st
}

// chatState is one chat: a finished turn, and the active one with a
// markdown part, a tool call and the input requests, the completed ones
// with their response.
func (h *Host) chatState(c *chat) map[string]any {
	st := map[string]any{
		"resource": c.uri, "title": c.title, "status": h.odd("waiting", 24), "modifiedAt": h.odd(1731400000123, "2026-11-12T10:04:31Z"), "interactivity": "full",
		"turns": []any{map[string]any{"id": "turn-0", "message": map[string]any{"text": "earlier"}, "state": "complete",
			"responseParts": []any{map[string]any{"kind": "markdown", "content": "Done."}}, "usage": map[string]any{"inputTokens": h.odd("many", 12)}}},
		"draft": map[string]any{"text": "half a thought"},
		"_meta": map[string]any{"x": []int{1, 2}},
	}
	if c.turn == "" {
		return st
	}
	parts := []any{
		map[string]any{"kind": "markdown", "id": "p1", "content": "Let me ask you something."},
		map[string]any{"kind": "toolCall", "toolCall": map[string]any{"toolCallId": "tc-1", "status": "running", "input": h.odd([]int{1}, "{}")}},
	}
	for _, r := range c.reqs {
		p := map[string]any{"kind": "inputRequest", "id": "part-" + r.id, "request": h.requestJSON(r)}
		if r.response != "" {
			p["response"] = r.response
		}
		parts = append(parts, p)
	}
	st["activeTurn"] = map[string]any{"id": c.turn, "startedAt": h.odd(1731400000000, "2026-11-12T10:04:31Z"),
		"message":       map[string]any{"text": "go", "origin": map[string]any{"kind": "user"}, "attachments": h.odd("none", []any{})},
		"responseParts": parts, "usage": map[string]any{"inputTokens": h.odd("12", 12), "model": h.odd(4, "gpt")}}
	return st
}
