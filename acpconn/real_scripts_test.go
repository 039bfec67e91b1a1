package acpconn

import (
	"fmt"
	"os"
)

// Scripted agents shaped after the real ones (see the verbatim logs in the
// agents survey): each raw- script does its own handshake.

// signInMethods are the six sign-in shapes real agents send, verbatim but
// for the copilot path.
var signInMethods = []any{
	// claude-agent-acp: a protocol terminal method.
	map[string]any{"description": "Use Claude subscription ", "name": "Claude Subscription", "id": "claude-ai-login", "type": "terminal", "args": []any{"--cli", "auth", "login", "--claudeai"}},
	// copilot: _meta["terminal-auth"].
	map[string]any{"id": "copilot-login", "name": "Log in with Copilot CLI", "description": "Run `copilot login` in the terminal",
		"_meta": map[string]any{"terminal-auth": map[string]any{"command": "/opt/copilot/copilot", "args": []any{"login"}, "label": "Copilot Login"}}},
	// qwen: _meta.type "terminal".
	map[string]any{"id": "openai", "name": "Use OpenAI API key", "description": "Requires setting the `OPENAI_API_KEY` environment variable",
		"_meta": map[string]any{"type": "terminal", "args": []any{"--auth-type=openai"}}},
	// opencode: only the description says so.
	map[string]any{"description": "Run `opencode auth login` in the terminal", "name": "Login with opencode", "id": "opencode-login"},
	// codex: env_var.
	map[string]any{"type": "env_var", "id": "codex-api-key", "name": "Use CODEX_API_KEY", "description": "Requires setting the `CODEX_API_KEY` environment variable.", "vars": []any{map[string]any{"name": "CODEX_API_KEY"}}},
	// gemini: _meta["api-key"].
	map[string]any{"id": "gemini-api-key", "name": "Gemini API key", "description": "Use an API key with Gemini Developer API", "_meta": map[string]any{"api-key": map[string]any{"provider": "google"}}},
}

func init() {
	// raw-signin offers the six shapes (the terminal ones only when the
	// client declares auth.terminal, as claude-agent-acp does), refuses
	// session/new until signed in, and exits with status 5 if a terminal
	// method is ever sent to authenticate.
	scripts["raw-signin"] = func(a *scripted) {
		init := a.recvMethod("initialize")
		methods := signInMethods
		if !declaresTerminalAuth(init) {
			methods = []any{signInMethods[4], signInMethods[5]}
		}
		a.reply(init, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{},
			"agentInfo": map[string]any{"name": "signin"}, "authMethods": methods})
		authed := false
		for {
			m := a.recv()
			switch m["method"] {
			case "session/new":
				if !authed {
					a.fail(m, -32603, "Internal error", "OPENAI_API_KEY is not set")
					continue
				}
				a.reply(m, map[string]any{"sessionId": "s1"})
			case "authenticate":
				p := m["params"].(map[string]any)
				switch p["methodId"] {
				case "gemini-api-key":
					meta, _ := p["_meta"].(map[string]any)
					if meta["api-key"] != "sekret" {
						a.fail(m, -32000, "Gemini API key is missing or not configured.", nil)
						continue
					}
				case "codex-api-key":
					if os.Getenv("CODEX_API_KEY") != "k" {
						a.fail(m, -32000, "Authentication required", map[string]any{"details": "CODEX_API_KEY is not set"})
						continue
					}
				default:
					fmt.Fprintln(os.Stderr, "a terminal method was sent to authenticate:", p["methodId"])
					a.out.Flush()
					os.Exit(5)
				}
				authed = true
				a.reply(m, map[string]any{})
			}
		}
	}

	// raw-sessions lists two pages of sessions (and one of another
	// directory), loads with a replay, resumes, closes, and answers a
	// prompt with two messages.
	scripts["raw-sessions"] = func(a *scripted) {
		init := a.recvMethod("initialize")
		a.reply(init, map[string]any{"protocolVersion": 1, "agentInfo": map[string]any{"name": "sessions"}, "authMethods": []any{},
			"agentCapabilities": map[string]any{"loadSession": true, "sessionCapabilities": map[string]any{"list": map[string]any{}, "resume": map[string]any{}, "close": map[string]any{}}}})
		wd, _ := os.Getwd()
		closed := ""
		for {
			m := a.recv()
			p, _ := m["params"].(map[string]any)
			switch m["method"] {
			case "session/list":
				if p["cwd"] != wd {
					a.fail(m, -32602, "wrong cwd", p["cwd"])
					continue
				}
				if p["cursor"] == nil {
					a.reply(m, map[string]any{"nextCursor": "p2", "sessions": []any{
						map[string]any{"sessionId": "s-old", "cwd": wd, "title": "old \x1b[31mtitle", "updatedAt": "2026-01-01T10:00:00Z"}}})
					continue
				}
				a.reply(m, map[string]any{"sessions": []any{
					map[string]any{"sessionId": "s-new", "cwd": wd, "title": "new", "updatedAt": "2026-02-01T10:00:00.5Z"},
					map[string]any{"sessionId": "s-elsewhere", "cwd": "/elsewhere", "title": "not here"}}})
			case "session/new":
				a.reply(m, map[string]any{"sessionId": "s1"})
			case "session/load":
				sid := p["sessionId"].(string)
				a.updateIn(sid, map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": "earlier question"}})
				a.updateIn(sid, map[string]any{"sessionUpdate": "agent_message_chunk", "messageId": "m0", "content": map[string]any{"type": "text", "text": "earlier answer"}})
				a.reply(m, map[string]any{"modes": map[string]any{"currentModeId": "ask", "availableModes": []any{map[string]any{"id": "ask", "name": "Ask"}}}})
			case "session/resume":
				a.reply(m, map[string]any{"models": map[string]any{"currentModelId": "big", "availableModels": []any{map[string]any{"modelId": "big", "name": "Big"}}}})
			case "session/close":
				closed = p["sessionId"].(string)
				a.reply(m, map[string]any{})
			case "session/prompt":
				sid := p["sessionId"].(string)
				a.updateIn(sid, map[string]any{"sessionUpdate": "agent_message_chunk", "messageId": "m1", "content": map[string]any{"type": "text", "text": "first"}})
				a.updateIn(sid, map[string]any{"sessionUpdate": "agent_message_chunk", "messageId": "m2", "content": map[string]any{"type": "text", "text": "second closed:" + closed}})
				a.endTurn(m, "end_turn")
			}
		}
	}

	// raw-models offers modes and a mode option with the same values, the
	// unstable models, and one more option; it answers set_config_option
	// with the options as they now are and notes set_model in its reply.
	scripts["raw-models"] = func(a *scripted) {
		init := a.recvMethod("initialize")
		a.reply(init, map[string]any{"protocolVersion": 1, "agentInfo": map[string]any{"name": "models"}, "authMethods": []any{}, "agentCapabilities": map[string]any{}})
		mode, model := "ask", "m1"
		opts := func() []any {
			return []any{
				map[string]any{"id": "mode", "name": "Mode", "category": "mode", "type": "select", "currentValue": mode, "options": []any{
					map[string]any{"value": "ask", "name": "Ask", "description": "asks first"}, map[string]any{"value": "code", "name": "Code"}}},
				map[string]any{"id": "effort", "name": "Effort", "category": "thought_level", "type": "select", "currentValue": "low", "options": []any{
					map[string]any{"value": "low", "name": "Low"}, map[string]any{"value": "high", "name": "High"}}},
			}
		}
		for {
			m := a.recv()
			p, _ := m["params"].(map[string]any)
			switch m["method"] {
			case "session/new":
				a.reply(m, map[string]any{"sessionId": "s1",
					"modes":         map[string]any{"currentModeId": mode, "availableModes": []any{map[string]any{"id": "ask", "name": "Ask"}, map[string]any{"id": "code", "name": "Code"}}},
					"models":        map[string]any{"currentModelId": model, "availableModels": []any{map[string]any{"modelId": "m1", "name": "Model One", "description": "small"}, map[string]any{"modelId": "m2", "name": "Model Two"}}},
					"configOptions": opts()})
			case "session/set_config_option":
				if p["configId"] == "mode" {
					mode = p["value"].(string)
				}
				a.reply(m, map[string]any{"configOptions": opts()})
			case "session/set_mode":
				mode = p["modeId"].(string)
				a.reply(m, map[string]any{})
			case "session/set_model":
				model = p["modelId"].(string)
				a.reply(m, map[string]any{})
			case "session/prompt":
				a.say("mode=" + mode + " model=" + model)
				a.endTurn(m, "end_turn")
			}
		}
	}

	// raw-setup asks a request-scoped form while it handles session/new
	// and creates the session only if the form was accepted.
	scripts["raw-setup"] = func(a *scripted) {
		init := a.recvMethod("initialize")
		a.reply(init, map[string]any{"protocolVersion": 1, "agentInfo": map[string]any{"name": "setup"}, "authMethods": []any{}, "agentCapabilities": map[string]any{}})
		for {
			m := a.recv()
			switch m["method"] {
			case "session/new":
				resp := a.request("elicitation/create", map[string]any{"requestId": m["id"], "mode": "form", "message": "Which workspace?",
					"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"workspace": map[string]any{"type": "string"}}, "required": []any{"workspace"}}})
				res, _ := resp["result"].(map[string]any)
				if res["action"] != "accept" {
					a.fail(m, -32603, "setup declined", nil)
					continue
				}
				content, _ := res["content"].(map[string]any)
				a.reply(m, map[string]any{"sessionId": fmt.Sprint("ws-", content["workspace"])})
			case "session/prompt":
				a.endTurn(m, "end_turn")
			}
		}
	}
}

// declaresTerminalAuth reports whether initialize declared auth.terminal.
func declaresTerminalAuth(init map[string]any) bool {
	p, _ := init["params"].(map[string]any)
	caps, _ := p["clientCapabilities"].(map[string]any)
	auth, _ := caps["auth"].(map[string]any)
	return auth["terminal"] == true
}

// fail answers request m with a JSON-RPC error; data is left out when nil.
func (a *scripted) fail(m map[string]any, code int, msg string, data any) {
	e := map[string]any{"code": code, "message": msg}
	if data != nil {
		e["data"] = data
	}
	a.send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "error": e})
}

// updateIn sends a session/update for session sid.
func (a *scripted) updateIn(sid string, u map[string]any) {
	a.send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": sid, "update": u}})
}
