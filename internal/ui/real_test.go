package ui

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func init() {
	// sessions lists two past sessions and loads one with a replay (two
	// messages, distinct ids); its prompt answers with two messages.
	uiScripts["sessions"] = func(a *rawAgent) {
		wd, _ := os.Getwd()
		a.serve(map[string]any{"agentCapabilities": map[string]any{"loadSession": true,
			"sessionCapabilities": map[string]any{"list": map[string]any{}, "resume": map[string]any{}, "close": map[string]any{}}}},
			func(m, p map[string]any) {
				switch m["method"] {
				case "session/new":
					a.reply(m, map[string]any{"sessionId": "s-fresh"})
				case "session/list":
					a.reply(m, map[string]any{"sessions": []any{
						map[string]any{"sessionId": "s-old", "cwd": wd, "title": "fix the parser", "updatedAt": "2026-01-01T09:00:00Z"},
						map[string]any{"sessionId": "s-older", "cwd": wd, "title": "write docs", "updatedAt": "2025-12-01T09:00:00Z"}}})
				case "session/load":
					sid := p["sessionId"].(string)
					a.update(sid, map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": "why does it fail"}})
					a.say(sid, "r1", "because of the comma")
					a.update(sid, map[string]any{"sessionUpdate": "session_info_update", "title": "fix the parser"})
					a.reply(m, map[string]any{})
				case "session/close", "session/resume":
					a.reply(m, map[string]any{})
				case "session/prompt":
					sid := p["sessionId"].(string)
					a.say(sid, "a1", "first message")
					a.say(sid, "a2", "second message")
					a.update(sid, map[string]any{"sessionUpdate": "usage_update", "used": 13100, "size": 1000000, "cost": map[string]any{"amount": 0.39, "currency": "USD"}})
					a.send(map[string]any{"jsonrpc": "2.0", "method": "noise"})
					a.out.WriteString("Please visit https://example.com/auth to sign in\n")
					a.out.Flush()
					a.reply(m, map[string]any{"stopReason": "end_turn"})
				}
			})
	}

	// settings sends modes and a mode option with the same values (as
	// claude, codex and qwen do), the unstable models, one more option.
	uiScripts["settings"] = func(a *rawAgent) {
		mode, model := "ask", "m1"
		opts := func() []any {
			return []any{
				map[string]any{"id": "mode", "name": "Mode", "category": "mode", "type": "select", "currentValue": mode, "options": []any{
					map[string]any{"value": "ask", "name": "Ask", "description": "asks before edits"}, map[string]any{"value": "code", "name": "Code"}}},
				map[string]any{"id": "effort", "name": "Effort", "type": "select", "currentValue": "low", "options": []any{
					map[string]any{"value": "low", "name": "Low"}, map[string]any{"value": "high", "name": "High"}}},
			}
		}
		var cmds []any
		for i := 0; i < 9; i++ {
			cmds = append(cmds, map[string]any{"name": fmt.Sprintf("cmd%d", i), "description": fmt.Sprintf("command number %d", i)})
		}
		cmds = append(cmds, map[string]any{"name": "memory show", "description": "show the memory", "input": map[string]any{"hint": "[section]"}},
			map[string]any{"name": "memory add", "description": "add to the memory", "input": map[string]any{"hint": "<text>"}})
		a.serve(nil, func(m, p map[string]any) {
			switch m["method"] {
			case "session/new":
				a.reply(m, map[string]any{"sessionId": "s1",
					"modes":         map[string]any{"currentModeId": mode, "availableModes": []any{map[string]any{"id": "ask", "name": "Ask"}, map[string]any{"id": "code", "name": "Code"}}},
					"models":        map[string]any{"currentModelId": model, "availableModels": []any{map[string]any{"modelId": "m1", "name": "Model One"}, map[string]any{"modelId": "m2", "name": "Model Two", "description": "the big one"}}},
					"configOptions": opts()})
				a.update("s1", map[string]any{"sessionUpdate": "available_commands_update", "availableCommands": cmds})
			case "session/set_config_option":
				mode = p["value"].(string)
				a.reply(m, map[string]any{"configOptions": opts()})
			case "session/set_mode":
				os.Exit(6) // the mode option wins: set_mode is never used
			case "session/set_model":
				model = p["modelId"].(string)
				a.reply(m, map[string]any{})
			case "session/prompt":
				a.say("s1", "", "mode="+mode+" model="+model)
				a.reply(m, map[string]any{"stopReason": "end_turn"})
			}
		})
	}

	// bare offers no mode, model or option.
	uiScripts["bare"] = func(a *rawAgent) {
		a.serve(nil, func(m, p map[string]any) {
			if m["method"] == "session/new" {
				a.reply(m, map[string]any{"sessionId": "s1"})
			}
		})
	}

	// setup asks a request-scoped form while it handles session/new.
	uiScripts["setup"] = func(a *rawAgent) {
		a.serve(nil, func(m, p map[string]any) {
			if m["method"] == "session/prompt" {
				sid := p["sessionId"].(string)
				a.say(sid, "", "in "+sid)
				a.reply(m, map[string]any{"stopReason": "end_turn"})
				return
			}
			if m["method"] != "session/new" {
				return
			}
			resp := a.request("elicitation/create", map[string]any{"requestId": m["id"], "mode": "form", "message": "Which workspace?",
				"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"workspace": map[string]any{"type": "string"}}, "required": []any{"workspace"}}})
			res, _ := resp["result"].(map[string]any)
			content, _ := res["content"].(map[string]any)
			if res["action"] != "accept" {
				a.fail(m, -32603, "setup declined", nil)
				return
			}
			a.reply(m, map[string]any{"sessionId": fmt.Sprint("ws-", content["workspace"])})
		})
	}
}

// Ctrl+R lists the agent's sessions; picking one loads it and its history
// renders as live history would; a new messageId starts a new block;
// usage, cost and title reach the status bar; stray stdout is shown.
func TestSessionPickerLoadsAndReplays(t *testing.T) {
	d := newDriver(t, Options{Agent: scriptConfig(t, "sessions")})
	d.connected()
	d.key("ctrl+r")
	d.waitText("fix the parser")
	d.waitText("write docs")
	d.key("2") // the newest past session
	d.until("the loaded session", func() bool { return d.m.connState == connReady && d.m.session.ID == "s-old" })
	d.waitText("because of the comma")
	d.waitText("why does it fail")
	d.waitText("fix the parser ·")
	d.typeText("go on")
	d.key("enter")
	d.waitText("second message")
	var blocks []string
	for _, it := range d.m.tr.items {
		if it.kind == kindAgent {
			blocks = append(blocks, it.body.String())
		}
	}
	if strings.Join(blocks, "|") != "because of the comma|first message|second message" {
		t.Errorf("agent blocks %q", blocks)
	}
	d.waitText("13k/1M ctx · 0.39 USD")
	d.waitText("agent output: Please visit https://example.com/auth")
}

// --resume with no id takes up the most recent session, with its replay.
func TestResumeFlagTakesTheMostRecent(t *testing.T) {
	d := newDriver(t, Options{Agent: scriptConfig(t, "sessions"), Resume: true})
	d.connected()
	if d.m.session.ID != "s-old" {
		t.Fatalf("session %q", d.m.session.ID)
	}
	d.waitText("because of the comma")
	d.waitText("resumed session s-old")
}

// One mode and one model, whichever way the agent sends them: Ctrl+O
// lists each choice once, with descriptions; Shift+Tab goes through the
// option (the agent exits if set_mode is used); --model sets the model.
func TestModeAndModelDeduplicated(t *testing.T) {
	d := newDriver(t, Options{Agent: scriptConfig(t, "settings"), Model: "model two"})
	d.connected()
	d.until("the model flag", func() bool { return d.m.session.Model == "m2" })
	d.waitText("mode Ask · model Model Two")
	d.key("ctrl+o")
	d.waitText("Session settings")
	scr := d.screen()
	if n := strings.Count(scr, "mode Ask"); n != 2 || strings.Contains(scr, "Mode: Ask") {
		t.Errorf("mode Ask listed more than once (and in the status bar):\n%s", scr)
	}
	for _, want := range []string{"mode Ask  ← current — asks before edits", "model Model Two  ← current — the big one", "Effort: High"} {
		if !strings.Contains(scr, want) {
			t.Errorf("settings lack %q:\n%s", want, scr)
		}
	}
	d.key("esc")
	d.key("shift+tab")
	d.until("the mode", func() bool { s, _ := d.m.session.Selector("mode"); return s.Current == "code" })
	d.waitText("mode Code")
	d.typeText("which")
	d.key("enter")
	d.waitText("mode=code model=m2")
}

// The completion list shows every matching command with its description
// and hint, scrolls, and stays for multi-word names.
func TestSlashCompletionList(t *testing.T) {
	d := newDriver(t, Options{Agent: scriptConfig(t, "settings")})
	d.connected()
	d.until("the commands", func() bool { return len(d.m.commands) == 11 })
	d.typeText("/")
	d.waitText("/cmd0  command number 0")
	d.waitText("1–6 of 11")
	for i := 0; i < 7; i++ {
		d.key("down")
	}
	d.waitText("/cmd7  command number 7")
	if strings.Contains(d.screen(), "/cmd0") {
		t.Errorf("the list did not scroll:\n%s", d.screen())
	}
	d.key("tab")
	if got := d.m.input.Value(); got != "/cmd7 " {
		t.Fatalf("completed %q", got)
	}
	d.m.input.SetValue("")
	d.typeText("/memory ")
	d.waitText("/memory show [section]  show the memory")
	d.waitText("/memory add <text>")
	d.typeText("show ")
	d.waitText("/memory show [section] — show the memory")
}

// Ctrl+O on an agent with no settings shows only the pause (the crash the
// lead fixed).
func TestSettingsWithNoneOffered(t *testing.T) {
	d := newDriver(t, Options{Agent: scriptConfig(t, "bare")})
	d.connected()
	d.key("ctrl+o")
	d.waitText("pause questions from this agent")
	d.key("down")
	d.key("enter")
	if d.m.queue.front() != nil {
		t.Fatal("dialog still open")
	}
}

// A question the agent asks while it handles session/new shows at once,
// over the start-up screen, and its answer lets the session start.
func TestSetupQuestionDuringSessionNew(t *testing.T) {
	d := newDriver(t, Options{Agent: scriptConfig(t, "setup")})
	d.until("the setup form", func() bool { _, ok := d.m.queue.front().(*formModal); return ok })
	if d.m.connState != connStarting {
		t.Fatalf("state %v", d.m.connState)
	}
	d.waitText("Which workspace?")
	d.focus()
	d.typeText("blue")
	for i := 0; i < 3 && d.m.connState != connReady; i++ { // the field, then the review
		d.key("enter")
		d.settle()
	}
	d.until("the session", func() bool { return d.m.connState == connReady })
	if d.m.session.ID != "ws-blue" {
		t.Fatalf("session %q", d.m.session.ID)
	}
}
