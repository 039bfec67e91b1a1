package acpconn

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Hostile agents: each does one thing a careless client lets through. They
// read their instructions from the environment (see start's cfg.Env).

// fsOutcome words the client's answer to an fs request in one line.
func fsOutcome(m map[string]any) string {
	if e, ok := m["error"].(map[string]any); ok {
		return fmt.Sprintf("error %v %v", e["code"], e["message"])
	}
	r, _ := m["result"].(map[string]any)
	if c, ok := r["content"].(string); ok {
		return "ok " + c
	}
	return "ok"
}

// spawnChild starts a child in the agent's process group (the default for
// a child) and records "leader child" pids in $ACPCONN_PIDFILE. The child
// is the test binary again, asleep; with $ACPCONN_CHILD=ignore-term it
// ignores SIGTERM.
func spawnChild() {
	self, _ := os.Executable()
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), "ACPCONN_TEST_AGENT=", "ACPCONN_TEST_CHILD="+orDefault(os.Getenv("ACPCONN_CHILD"), "sleep"))
	cmd.Stderr = os.Stderr // like node under npx: the child shares the agent's stderr
	ready, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "spawn:", err)
		os.Exit(5)
	}
	// The child says it is ready (its signal handling in place) with a
	// line on its stdout; end of file if it died first.
	_, _ = bufio.NewReader(ready).ReadString('\n')
	line := fmt.Sprintf("%d %d\n", os.Getpid(), cmd.Process.Pid)
	_ = os.WriteFile(os.Getenv("ACPCONN_PIDFILE")+".tmp", []byte(line), 0o644)
	_ = os.Rename(os.Getenv("ACPCONN_PIDFILE")+".tmp", os.Getenv("ACPCONN_PIDFILE"))
}

// testChild is what a spawned child runs: it sleeps, ignoring SIGTERM when
// asked to, once it said it is ready.
func testChild(kind string) {
	if kind == "ignore-term" {
		signal.Ignore(syscall.SIGTERM)
	}
	fmt.Println("ready")
	time.Sleep(time.Hour)
	os.Exit(0)
}

func init() {
	// fs-requests sends the fs requests listed in $ACPCONN_FS_REQS (a JSON
	// array of [method, params]; a relative "path" is taken from the
	// session directory) and says each outcome on a line of its own.
	scripts["fs-requests"] = func(a *scripted) {
		p := a.prompt()
		var reqs [][2]json.RawMessage
		if err := json.Unmarshal([]byte(os.Getenv("ACPCONN_FS_REQS")), &reqs); err != nil {
			a.say("bad ACPCONN_FS_REQS: " + err.Error())
		}
		wd, _ := os.Getwd()
		for _, r := range reqs {
			var method string
			var params map[string]any
			_ = json.Unmarshal(r[0], &method)
			_ = json.Unmarshal(r[1], &params)
			if path, ok := params["path"].(string); ok && !filepath.IsAbs(path) {
				params["path"] = filepath.Join(wd, path)
			}
			if params["sessionId"] == nil {
				params["sessionId"] = "s1"
			}
			a.say(strings.ReplaceAll(fsOutcome(a.request(method, params)), "\n", `\n`) + "\n")
		}
		a.endTurn(p, "end_turn")
	}
}

func init() {
	// idle (with ACPCONN_SPAWN=1: a child in its group) exits on stdin's
	// end, as agents do at quit, leaving any child behind.
	scripts["idle"] = func(a *scripted) {
		for {
			a.recv() // exits 0 at end of input
		}
	}
	// silent-start never answers initialize (nor reads its input).
	scripts["silent-start"] = func(a *scripted) { select {} }
	// slow-session answers initialize but never session/new.
	scripts["slow-session"] = func(a *scripted) {
		a.reply(a.recvMethod("initialize"), map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}})
		select {}
	}
	// flood-before-init sends 3,000 updates before it answers initialize.
	scripts["flood-before-init"] = func(a *scripted) {
		for i := 0; i < 3000; i++ {
			a.out.WriteString(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"early "}}}}` + "\n")
		}
		a.out.Flush()
		a.handshake()
		p := a.prompt()
		a.say("late")
		a.endTurn(p, "end_turn")
	}
	// stderr-flood writes a 2 MiB line to stderr, then more, then answers.
	scripts["stderr-flood"] = func(a *scripted) {
		p := a.prompt()
		os.Stderr.WriteString(strings.Repeat("e", 2<<20) + "\n")
		os.Stderr.WriteString("after the long line\n")
		a.say("alive")
		a.endTurn(p, "end_turn")
	}
}

// protocol: what the agent sends that no well-behaved agent would.
func init() {
	// storm sends 5,000 permission requests at once, reads the answers
	// until all but MaxWaiting came back, says how many were cancelled,
	// then reads the rest.
	scripts["storm"] = func(a *scripted) {
		p := a.prompt()
		const n = 5000
		for i := 1; i <= n; i++ {
			a.out.WriteString(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t%d","title":"step %d"},"options":[{"optionId":"y","name":"Yes","kind":"allow_once"}]}}`+"\n", 10000+i, i, i))
		}
		a.out.Flush()
		cancelled, selected, got := 0, 0, 0
		report := func() {
			a.say(fmt.Sprintf("got=%d cancelled=%d selected=%d\n", got, cancelled, selected))
		}
		for got < n {
			m := a.recv()
			r, ok := m["result"].(map[string]any)
			if !ok {
				continue
			}
			got++
			if o, _ := r["outcome"].(map[string]any); o["outcome"] == "cancelled" {
				cancelled++
			} else {
				selected++
			}
			if got == n-MaxWaiting {
				report()
			}
		}
		report()
		a.endTurn(p, "end_turn")
	}
	// foreign-session sends an update, a permission request, an
	// elicitation and an fs read for a session the client never created.
	scripts["foreign-session"] = func(a *scripted) {
		p := a.prompt()
		a.send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": "s-other",
			"update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "FOREIGN"}}}})
		code := func(m map[string]any) string {
			e, _ := m["error"].(map[string]any)
			return fmt.Sprint(e["code"])
		}
		perm := a.request("session/request_permission", map[string]any{"sessionId": "s-other", "toolCall": map[string]any{"toolCallId": "t"},
			"options": []any{map[string]any{"optionId": "y", "name": "Yes", "kind": "allow_once"}}})
		el := a.request("elicitation/create", map[string]any{"sessionId": "s-other", "mode": "form", "message": "foreign",
			"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}}})
		wd, _ := os.Getwd()
		rd := a.request("fs/read_text_file", map[string]any{"sessionId": "s-other", "path": filepath.Join(wd, "x")})
		a.say(fmt.Sprintf("%s %s %s", code(perm), code(el), code(rd)))
		a.endTurn(p, "end_turn")
	}
	// idless sends two requests without an id, an unknown request, a
	// terminal request and an unknown notification, then one real question.
	scripts["idless"] = func(a *scripted) {
		p := a.prompt()
		a.send(map[string]any{"jsonrpc": "2.0", "method": "elicitation/create", "params": map[string]any{"sessionId": "s1", "mode": "form", "message": "no id",
			"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}}}})
		a.send(map[string]any{"jsonrpc": "2.0", "method": "session/request_permission", "params": map[string]any{"sessionId": "s1", "toolCall": map[string]any{"toolCallId": "t"},
			"options": []any{map[string]any{"optionId": "y", "name": "Yes", "kind": "allow_once"}}}})
		a.send(map[string]any{"jsonrpc": "2.0", "method": "x/notice", "params": map[string]any{}})
		term := a.request("editor/open", map[string]any{"sessionId": "s1", "path": "x"})
		unk := a.request("x/unknown", map[string]any{})
		a.say("between")
		real := a.request("elicitation/create", map[string]any{"sessionId": "s1", "mode": "form", "message": "real",
			"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}}})
		te, _ := term["error"].(map[string]any)
		ue, _ := unk["error"].(map[string]any)
		b, _ := json.Marshal(real["result"])
		a.say(fmt.Sprintf("|%v %v %s", te["code"], ue["code"], b))
		a.endTurn(p, "end_turn")
	}
	// wrong-id answers the prompt with its id as a string.
	scripts["wrong-id"] = func(a *scripted) {
		p := a.prompt()
		a.send(map[string]any{"jsonrpc": "2.0", "id": fmt.Sprint(p["id"]), "result": map[string]any{"stopReason": "end_turn"}})
		for {
			a.recv()
		}
	}
	// deep-envelope answers the prompt with a result nested 10,001 deep.
	scripts["deep-envelope"] = func(a *scripted) {
		p := a.prompt()
		a.raw(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"stopReason":"end_turn","x":%s1%s}}`, p["id"], strings.Repeat("[", 10001), strings.Repeat("]", 10001)))
		for {
			a.recv()
		}
	}
}

// oddID is an id no sanitizer leaves alone: an escape, a bidi override, a
// bell and a zero-width space.
const oddID = "m\x1b[1mx\u202e\a\u200b"

func init() {
	// odd-ids offers a mode, a config option and a tool call whose ids
	// carry control and invisible characters, and writes every
	// set_mode / set_config_option params it receives to $ACPCONN_ECHO.
	scripts["odd-ids"] = func(a *scripted) {
		init := a.recvMethod("initialize")
		a.reply(init, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}})
		opts := []any{map[string]any{"id": oddID, "name": "O", "type": "select", "currentValue": oddID,
			"options": []any{map[string]any{"value": oddID, "name": "V"}, map[string]any{"value": "w", "name": "W"}}}}
		a.reply(a.recvMethod("session/new"), map[string]any{"sessionId": "s1",
			"modes":         map[string]any{"currentModeId": oddID, "availableModes": []any{map[string]any{"id": oddID, "name": "M"}}},
			"configOptions": opts})
		echo, _ := os.Create(os.Getenv("ACPCONN_ECHO"))
		for {
			m := a.recv()
			switch m["method"] {
			case "session/set_mode":
				b, _ := json.Marshal(m["params"])
				echo.Write(append(b, '\n'))
				a.reply(m, map[string]any{})
			case "session/set_config_option":
				b, _ := json.Marshal(m["params"])
				echo.Write(append(b, '\n'))
				a.reply(m, map[string]any{"configOptions": opts})
			case "session/prompt":
				a.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": oddID, "title": "t"})
				a.send(map[string]any{"jsonrpc": "2.0", "id": 777, "method": "elicitation/create", "params": map[string]any{"sessionId": "s1", "toolCallId": oddID, "mode": "form", "message": "n?",
					"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}}}})
				for { // the answer exactly as it came, digits and all
					line, err := a.in.ReadBytes('\n')
					if err != nil {
						os.Exit(0)
					}
					if strings.Contains(string(line), `"id":777`) {
						echo.Write(line)
						break
					}
				}
				a.endTurn(m, "end_turn")
			}
		}
	}
}

func init() {
	// e2e-hang (with ACPCONN_SPAWN=1) takes the prompt, marks it in
	// $ACPCONN_PIDFILE.prompted, and then never answers.
	scripts["e2e-hang"] = func(a *scripted) {
		a.prompt()
		_ = os.WriteFile(os.Getenv("ACPCONN_PIDFILE")+".prompted", nil, 0o644)
		select {}
	}
}
