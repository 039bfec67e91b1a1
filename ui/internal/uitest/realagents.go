package uitest

import (
	"os"
	"path/filepath"
	"time"
)

// WaitEnv makes the real-agent scripts wait, before each piece of a
// command's output, for a file named go1, go2, ... in their directory: a
// test sees each piece on screen before the next is printed.
const WaitEnv = "ELICIT_UI_TEST_WAIT"

// WarningText is what the claude script says after its reply, without a
// message id, as Claude Code's warnings come.
const WarningText = "**Warning:** the gateway is old."

func init() {
	// claude speaks as claude-agent-acp 0.101.0 does (its tool-calls/
	// renderer.js): a reply with a message id, a Bash tool call with a
	// terminal that asks permission, a progress beat, the command's output
	// as terminal_output_delta (to a client that declares deltas;
	// terminal_output to one that declares only terminal_output; the
	// output as text to one that declares neither), its exit, a reply with
	// another id, and a warning without one.
	Scripts["claude"] = func(a *RawAgent) {
		a.ServeTurns(func(m, p map[string]any) {
			a.Say("s1", "m1", "Calling Bash.")
			a.claudeBash()
			a.Say("s1", "m2", "done: Bash: line 1")
			a.Update("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": WarningText}})
			a.Reply(m, map[string]any{"stopReason": "end_turn"})
		})
	}
	// codex speaks as codex-acp 0.16.0 does: no message ids at all, an
	// exec_command tool call in progress with its terminal (to a client
	// that declares terminal_output), each piece of output as
	// terminal_output, its exit code, then more text.
	Scripts["codex"] = func(a *RawAgent) {
		a.ServeTurns(func(m, p map[string]any) {
			a.Say("s1", "", "Calling exec_command.")
			a.codexExec()
			a.Say("s1", "", "done: exec_command: line 1")
			a.Reply(m, map[string]any{"stopReason": "end_turn"})
		})
	}
}

func init() {
	// noids-permission sends no message ids and names its tool call only in
	// a permission request, between two runs of text.
	Scripts["noids-permission"] = func(a *RawAgent) {
		a.ServeTurns(func(m, p map[string]any) {
			a.Say("s1", "", "Before.")
			a.Request("session/request_permission", map[string]any{"sessionId": "s1",
				"toolCall": map[string]any{"toolCallId": "c1", "title": "echo hi", "kind": "execute"},
				"options":  []any{map[string]any{"optionId": "yes", "name": "Yes", "kind": "allow_once"}}})
			a.Say("s1", "", "After.")
			a.Reply(m, map[string]any{"stopReason": "end_turn"})
		})
	}
}

// metaCap says whether the client declared the _meta capability name.
func (a *RawAgent) metaCap(name string) bool {
	meta, _ := a.Caps["_meta"].(map[string]any)
	v, _ := meta[name].(bool)
	return v
}

// step waits for the test's go-ahead file n, when WaitEnv is set.
func step(n string) {
	if os.Getenv(WaitEnv) == "" {
		return
	}
	wd, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(wd, "go"+n)); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (a *RawAgent) claudeBash() {
	const id = "toolu_1"
	delta, output := a.metaCap("terminal_output_delta"), a.metaCap("terminal_output")
	term := delta || output
	meta := map[string]any{"claudeCode": map[string]any{"toolName": "Bash"}}
	tc := map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "status": "pending", "title": "Terminal", "kind": "execute", "_meta": meta}
	if term {
		meta["terminal_info"] = map[string]any{"terminal_id": id}
		tc["content"] = []any{map[string]any{"type": "terminal", "terminalId": id}}
	}
	a.Update("s1", tc)
	a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "title": "for i in 1 2; do echo line $i; sleep 1; done"})
	r := a.Request("session/request_permission", map[string]any{"sessionId": "s1",
		"toolCall": map[string]any{"toolCallId": id, "status": "pending", "title": "for i in 1 2; do echo line $i; sleep 1; done", "kind": "execute"},
		"options":  []any{map[string]any{"optionId": "allow-once", "name": "Yes", "kind": "allow_once"}, map[string]any{"optionId": "reject", "name": "No", "kind": "reject_once"}}})
	res, _ := r["result"].(map[string]any)
	out, _ := res["outcome"].(map[string]any)
	if out["optionId"] != "allow-once" {
		a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "failed",
			"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "The user doesn't want to proceed."}}}})
		return
	}
	step("1") // allowed: "running" on screen, nothing from the agent yet
	a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "in_progress",
		"_meta": map[string]any{"claudeCode": map[string]any{"toolName": "Bash", "toolResponse": map[string]any{"elapsedTimeSeconds": 2}}}})
	if !term {
		a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
			"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "```console\nline 1\nline 2\n```"}}}})
		return
	}
	key := "terminal_output"
	if delta {
		key = "terminal_output_delta"
	}
	for i, data := range []string{"line 1\n", "line 2"} { // Claude Code trims the last newline
		step(string(rune('2' + i)))
		a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id,
			"_meta": map[string]any{key: map[string]any{"terminal_id": id, "data": data}}})
	}
	step("4")
	a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
		"_meta": map[string]any{"claudeCode": map[string]any{"toolName": "Bash"}, "terminal_exit": map[string]any{"terminal_id": id, "exit_code": 0, "signal": nil}}})
}

func (a *RawAgent) codexExec() {
	const id = "call_1"
	term := a.metaCap("terminal_output")
	tc := map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": "for i in 1 2; do echo line $i; sleep 1; done", "kind": "execute", "status": "in_progress"}
	if term {
		wd, _ := os.Getwd()
		tc["content"] = []any{map[string]any{"type": "terminal", "terminalId": id}}
		tc["_meta"] = map[string]any{"terminal_info": map[string]any{"terminal_id": id, "cwd": wd}}
	}
	a.Update("s1", tc)
	output := ""
	for i, data := range []string{"line 1\n", "line 2\n"} {
		step(string(rune('1' + i)))
		if term {
			a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id,
				"_meta": map[string]any{"terminal_output": map[string]any{"terminal_id": id, "data": data}}})
			continue
		}
		output += data
		a.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id,
			"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "```sh\n" + output + "```\n"}}}})
	}
	step("3")
	end := map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "failed"}
	if term {
		end["_meta"] = map[string]any{"terminal_exit": map[string]any{"terminal_id": id, "exit_code": 3, "signal": nil}}
	}
	a.Update("s1", end)
}
