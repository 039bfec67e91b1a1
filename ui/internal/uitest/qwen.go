package uitest

import "encoding/json"

// QwenQuestions are the questions the qwen-ask script asks: a select and
// a multi-select, in the shape qwen-code 0.24.4's ask_user_question tool
// takes them.
const QwenQuestions = `[{"header":"Colour","options":[{"description":"warm","label":"Red"},{"description":"cool","label":"Blue"}],"question":"Which colour?"},{"header":"Extras","multiSelect":true,"options":[{"description":"crunchy","label":"Nuts"},{"description":"sweet","label":"Jam"}],"question":"Which extras?"}]`

func init() {
	// qwen-ask asks as qwen-code 0.24.4 does (recorded with the model
	// mock): its ask_user_question tool call, pending, then a permission
	// request whose rawInput and _meta.qwenQuestions hold the questions,
	// with Submit and Cancel; then it says "qwen got " and the response
	// it read, and "done." after it.
	Scripts["qwen-ask"] = func(a *RawAgent) {
		a.ServeTurns(func(m, p map[string]any) {
			a.Say("s1", "", "Calling ask_user_question.")
			a.Update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "call_mock1", "status": "pending", "title": "AskUserQuestion",
				"content": []any{}, "locations": []any{}, "kind": "think", "rawInput": map[string]any{},
				"_meta": map[string]any{"toolName": "ask_user_question", "provenance": "builtin", "phase": "preparing"}})
			qs := json.RawMessage(QwenQuestions)
			r := a.Request("session/request_permission", map[string]any{"sessionId": "s1",
				"options": []any{map[string]any{"optionId": "proceed_once", "name": "Submit", "kind": "allow_once"}, map[string]any{"optionId": "cancel", "name": "Cancel", "kind": "reject_once"}},
				"toolCall": map[string]any{"toolCallId": "call_mock1", "status": "pending", "title": "Ask user 2 questions", "content": []any{}, "locations": []any{},
					"kind": "think", "rawInput": map[string]any{"questions": qs},
					"_meta": map[string]any{"toolName": "ask_user_question", "qwenInteractionKind": "user_question", "qwenQuestions": qs}}})
			b, _ := json.Marshal(r["result"])
			a.Say("s1", "", "qwen got "+string(b)+"\n\ndone.")
			a.Reply(m, map[string]any{"stopReason": "end_turn"})
		})
	}
}
