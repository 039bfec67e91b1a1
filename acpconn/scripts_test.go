package acpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question"
)

// manyProperties is a form request with n string properties.
func manyProperties(n int) string {
	props := make([]string, n)
	for i := range props {
		props[i] = fmt.Sprintf(`"p%d":{"type":"string"}`, i)
	}
	return `{"sessionId":"s1","mode":"form","message":"m","requestedSchema":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}`
}

// manyOptions is a form request with one select of n options.
func manyOptions(n int) string {
	opts := make([]string, n)
	for i := range opts {
		opts[i] = fmt.Sprintf(`"o%d"`, i)
	}
	return `{"sessionId":"s1","mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"pick":{"type":"string","enum":[` + strings.Join(opts, ",") + `]}}}}`
}

func init() {
	scripts["odd-updates"] = func(a *scripted) {
		p := a.prompt()
		a.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t9", "status": "in_progress", "title": "early"})
		a.update(map[string]any{"sessionUpdate": "mystery_update", "x": 1})
		a.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t9", "title": "Read file", "kind": "read", "status": "completed"})
		a.raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x\u001b]52;c;cHduZWQ=\u0007y\u202e"}}}}`)
		a.raw(`this is not json`)
		a.raw(`{"jsonrpc":"2.0","id":99,"method":"no/such_method","params":{}}`)
		a.endTurn(p, "end_turn")
	}
	scripts["exit-mid-turn"] = func(a *scripted) {
		a.prompt()
		a.say("partial answer")
		fmt.Fprintln(os.Stderr, "boom: the agent hit a fatal error")
		a.out.Flush()
		os.Exit(3)
	}
	scripts["cancel"] = func(a *scripted) {
		p := a.prompt()
		a.say("working")
		resp := a.request("session/request_permission", map[string]any{"sessionId": "s1",
			"toolCall": map[string]any{"toolCallId": "t1", "title": "rm -rf build"},
			"options":  []any{map[string]any{"optionId": "yes", "name": "Allow", "kind": "allow_once"}}})
		b, _ := json.Marshal(resp["result"])
		if !a.seen["session/cancel"] {
			a.recvMethod("session/cancel")
		}
		a.say(" permission:" + string(b))
		a.endTurn(p, "cancelled")
	}
	scripts["bad-elicitations"] = func(a *scripted) {
		p := a.prompt()
		bad := []string{
			`{"sessionId":"s1","message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string"}}}}`,
			`{"sessionId":"s1","mode":"dialog","message":"m"}`,
			`{"sessionId":"s1","mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"addr":{"type":"object","properties":{}}}}}`,
			`{"sessionId":"s1","mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"when":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}}`,
			`{"sessionId":"s1","mode":"url","message":"m","url":"https://example.com/"}`,
			`{"sessionId":"s1","mode":"url","message":"m","elicitationId":"e1","url":"javascript:alert(1)"}`,
			`{"sessionId":"s1","mode":"form","message":"m","requestedSchema":{"type":"array"}}`,
			`[1,2]`,
			`{"sessionId":"s1","mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"people":{"type":"array","items":{"type":"object"}}}}}`,
			`{"sessionId":"s1","mode":"url","message":"m","elicitationId":"e2","url":"http://exa mple.com:99999/"}`,
			manyProperties(101),
			manyOptions(10001),
			`{"sessionId":"s1","mode":"form","message":"` + strings.Repeat("x", question.MaxMessageBytes+1) + `","requestedSchema":{"type":"object","properties":{}}}`,
		}
		for _, params := range bad {
			var v any
			_ = json.Unmarshal([]byte(params), &v)
			resp := a.request("elicitation/create", v)
			e, _ := resp["error"].(map[string]any)
			a.say(fmt.Sprintf("%v|%v\n", e["code"], e["message"]))
		}
		a.endTurn(p, "end_turn")
	}
	scripts["form"] = func(a *scripted) {
		p := a.prompt()
		resp := a.request("elicitation/create", map[string]any{"sessionId": "s1", "toolCallId": "t7", "mode": "form", "message": "Your name?",
			"requestedSchema": json.RawMessage(`{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"}},"required":["zeta"]}`)})
		b, _ := json.Marshal(resp["result"])
		a.say(string(b))
		a.endTurn(p, "end_turn")
	}
	// withdraw asks a form and withdraws it once the test says the client
	// holds it (withdrawNow's session/set_mode), then says what the
	// client answered.
	scripts["withdraw"] = func(a *scripted) {
		p := a.prompt()
		a.nextID++
		a.send(map[string]any{"jsonrpc": "2.0", "id": a.nextID, "method": "elicitation/create", "params": map[string]any{"sessionId": "s1", "mode": "form", "message": "soon withdrawn",
			"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string"}}}}})
		a.reply(a.recvMethod("session/set_mode"), map[string]any{})
		a.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancel_request", "params": map[string]any{"requestId": a.nextID}})
		resp := a.recv()
		e, _ := resp["error"].(map[string]any)
		a.say(fmt.Sprintf("withdrawn:%v", e["code"]))
		a.endTurn(p, "end_turn")
	}
	scripts["fs"] = func(a *scripted) {
		p := a.prompt()
		wd, _ := os.Getwd()
		inside := filepath.Join(wd, "sub", "new.txt")
		w := a.request("fs/write_text_file", map[string]any{"sessionId": "s1", "path": inside, "content": "one\ntwo\nthree\n"})
		r := a.request("fs/read_text_file", map[string]any{"sessionId": "s1", "path": inside, "line": 2, "limit": 1})
		out := a.request("fs/read_text_file", map[string]any{"sessionId": "s1", "path": "/etc/hostname"})
		esc := a.request("fs/write_text_file", map[string]any{"sessionId": "s1", "path": filepath.Join(wd, "..", "escape.txt"), "content": "x"})
		link := a.request("fs/read_text_file", map[string]any{"sessionId": "s1", "path": filepath.Join(wd, "link", "hostname")})
		for _, m := range []map[string]any{w, r, out, esc, link} {
			if e, ok := m["error"].(map[string]any); ok {
				a.say(fmt.Sprintf("error %v;", e["code"]))
			} else {
				b, _ := json.Marshal(m["result"])
				a.say(string(b) + ";")
			}
		}
		a.endTurn(p, "end_turn")
	}
	scripts["flood"] = func(a *scripted) {
		p := a.prompt()
		for i := 0; i < 20000; i++ {
			a.out.WriteString(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"w "}}}}` + "\n")
		}
		a.out.Flush()
		a.endTurn(p, "end_turn")
	}
	scripts["huge-line"] = func(a *scripted) {
		a.prompt()
		a.raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + strings.Repeat("a", 11<<20) + `"}}}}`)
		for {
			a.recv() // until the client ends the session: exits 0 at end of input
		}
	}
	scripts["complete"] = func(a *scripted) {
		p := a.prompt()
		for _, id := range []string{"known", "known", "unknown"} {
			a.send(map[string]any{"jsonrpc": "2.0", "method": "elicitation/complete", "params": map[string]any{"elicitationId": id}})
		}
		a.endTurn(p, "end_turn")
	}
}

// withdrawNow tells the withdraw script that the client holds its
// question (a session/set_mode it waits for), so the withdrawal never
// comes before the question was shown.
func withdrawNow(t *testing.T, c *Conn) {
	if err := c.SetMode(context.Background(), "withdraw"); err != nil {
		t.Errorf("set_mode for the withdraw script: %v", err)
	}
}

func init() {
	scripts["burst"] = func(a *scripted) {
		p := a.prompt()
		for i := 1; i <= 12; i++ {
			a.send(map[string]any{"jsonrpc": "2.0", "id": 1000 + i, "method": "elicitation/create", "params": map[string]any{
				"sessionId": "s1", "mode": "form", "message": fmt.Sprintf("question %d", i),
				"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string"}}}}})
		}
		counts := map[string]int{}
		for n := 0; n < 12; {
			m := a.recv()
			if r, ok := m["result"].(map[string]any); ok {
				counts[fmt.Sprint(r["action"])]++
				n++
			}
		}
		a.say(fmt.Sprintf("cancel=%d decline=%d", counts["cancel"], counts["decline"]))
		a.endTurn(p, "end_turn")
	}
}

func init() {
	// auth lists two methods and refuses session/new with -32000 until the
	// client authenticates with the second one.
	scripts["auth"] = func(a *scripted) {
		init := a.recvMethod("initialize")
		a.reply(init, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{},
			"agentInfo": map[string]any{"name": "needs-auth", "version": "1"},
			"authMethods": []any{
				map[string]any{"id": "oauth", "name": "Sign in with a browser", "description": "opens a page"},
				map[string]any{"id": "key", "name": "API key", "description": "from ANTHROPIC_API_KEY"},
			}})
		authed := false
		for {
			m := a.recv()
			switch m["method"] {
			case "session/new":
				if !authed {
					a.send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "error": map[string]any{"code": -32000, "message": "Authentication required"}})
					continue
				}
				a.reply(m, map[string]any{"sessionId": "s1"})
			case "authenticate":
				p := m["params"].(map[string]any)
				if p["methodId"] != "key" {
					a.send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "error": map[string]any{"code": -32000, "message": "Authentication failed", "data": map[string]any{"details": "no browser here"}}})
					continue
				}
				authed = true
				a.reply(m, map[string]any{})
			}
		}
	}
}

func init() {
	// ordered sends, 30 times, a tool call and at once a form scoped to it.
	scripts["ordered"] = func(a *scripted) {
		p := a.prompt()
		for i := 0; i < 30; i++ {
			id := fmt.Sprintf("call_%d", i)
			a.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": "Delete ./build"})
			a.request("elicitation/create", map[string]any{"sessionId": "s1", "toolCallId": id, "mode": "form", "message": "Sure?",
				"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}})
		}
		a.endTurn(p, "end_turn")
	}
}
