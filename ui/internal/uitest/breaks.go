package uitest

// LateText is the code block the codex-late script streams around its
// late update, as codex-acp's reply in issue 35 did.
const LateText = "```\nChunk\nID: 72596d\n```"

func init() {
	// codex-late speaks as codex-acp 0.16.0 does (no message ids): its
	// command, then a reply with a code block; between two of the reply's
	// chunks it reports the finished command once more.
	Scripts["codex-late"] = func(a *RawAgent) {
		a.ServeTurns(func(m, p map[string]any) {
			a.Say("s1", "", "Calling exec_command.")
			a.codexExec()
			a.Say("s1", "", "```\nChunk")
			a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "failed",
				"rawOutput": map[string]any{"exit_code": 3, "formatted_output": "line 1\nline 2\n"}})
			a.Say("s1", "", "\nID: 72596d\n```")
			a.Reply(m, map[string]any{"stopReason": "end_turn"})
		})
	}
	// noids-user sends no message ids, and a user message between its two
	// replies (an agent telling what it was given meanwhile).
	Scripts["noids-user"] = func(a *RawAgent) {
		a.ServeTurns(func(m, p map[string]any) {
			a.Say("s1", "", "First reply.")
			a.Update("s1", map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": "and then?"}})
			a.Say("s1", "", "Second reply.")
			a.Reply(m, map[string]any{"stopReason": "end_turn"})
		})
	}
}

func init() {
	// qwen-echo speaks as qwen serve 0.24.4 does (echoPromptToSessionBus):
	// each block of a prompt comes back as a live user_message_chunk marked
	// _meta.source "bridge-echo", then the reply. A prompt "others" is
	// followed by another client's prompt as well.
	Scripts["qwen-echo"] = func(a *RawAgent) {
		a.ServeTurns(func(m, p map[string]any) {
			blocks, _ := p["prompt"].([]any)
			for _, b := range blocks {
				a.Update("s1", map[string]any{"sessionUpdate": "user_message_chunk", "content": b,
					"_meta": map[string]any{"serverTimestamp": 1767225600000, "source": "bridge-echo"}})
			}
			if b, _ := blocks[0].(map[string]any); b["text"] == "others" {
				a.Update("s1", map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": "a prompt from another client"},
					"_meta": map[string]any{"serverTimestamp": 1767225600001, "source": "bridge-echo"}})
			}
			a.Say("s1", "", "Hello from qwen.")
			a.Reply(m, map[string]any{"stopReason": "end_turn"})
		})
	}
}
