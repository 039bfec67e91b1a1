package ui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/elicit-dev/elicit/internal/acpconn"
)

// rawAgent is a scripted agent speaking raw JSON-RPC lines over the test
// binary's stdio, shaped after the real agents (see the agents survey):
// the test binary runs as one when ELICIT_UI_TEST_AGENT=script:NAME.
type rawAgent struct {
	in     *bufio.Reader
	out    *bufio.Writer
	nextID int
}

func (a *rawAgent) send(v any) {
	b, _ := json.Marshal(v)
	a.out.Write(append(b, '\n'))
	a.out.Flush()
}

func (a *rawAgent) recv() map[string]any {
	line, err := a.in.ReadBytes('\n')
	if err != nil {
		os.Exit(0)
	}
	var m map[string]any
	if json.Unmarshal(line, &m) != nil {
		os.Exit(4)
	}
	return m
}

func (a *rawAgent) reply(m map[string]any, result any) {
	a.send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": result})
}

func (a *rawAgent) fail(m map[string]any, code int, msg string, data any) {
	e := map[string]any{"code": code, "message": msg}
	if data != nil {
		e["data"] = data
	}
	a.send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "error": e})
}

// request sends a request and waits for its answer.
func (a *rawAgent) request(method string, params any) map[string]any {
	a.nextID++
	id := a.nextID
	a.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	for {
		m := a.recv()
		if v, ok := m["id"].(float64); ok && int(v) == id && m["method"] == nil {
			return m
		}
	}
}

func (a *rawAgent) update(sid string, u map[string]any) {
	a.send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": sid, "update": u}})
}

func (a *rawAgent) say(sid, msgID, text string) {
	a.update(sid, map[string]any{"sessionUpdate": "agent_message_chunk", "messageId": msgID, "content": map[string]any{"type": "text", "text": text}})
}

// serve answers initialize with init, then hands every message to h.
func (a *rawAgent) serve(init map[string]any, h func(m map[string]any, p map[string]any)) {
	for {
		m := a.recv()
		p, _ := m["params"].(map[string]any)
		if m["method"] == "initialize" {
			base := map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{}, "agentInfo": map[string]any{"name": "scripted"}}
			for k, v := range init {
				base[k] = v
			}
			a.reply(m, base)
			continue
		}
		if m["method"] == nil {
			continue
		}
		h(m, p)
	}
}

// uiScripts are the scripted agents, by name.
var uiScripts = map[string]func(a *rawAgent){}

// runScript runs the script named in the environment and exits.
func runScript(name string) {
	s := uiScripts[name]
	if s == nil {
		fmt.Fprintln(os.Stderr, "no script", name)
		os.Exit(3)
	}
	s(&rawAgent{in: bufio.NewReaderSize(os.Stdin, 1<<20), out: bufio.NewWriter(os.Stdout)})
	os.Exit(0)
}

// scriptConfig runs the named script as the agent, with extra environment.
func scriptConfig(t *testing.T, name string, env ...string) acpconn.Config {
	cfg := demoConfig(t)
	cfg.Env = append(append(os.Environ(), "ELICIT_UI_TEST_AGENT=script:"+name), env...)
	return cfg
}

// loginFlag makes the test binary act as a terminal sign-in command: it
// writes the file named by ELICIT_UI_TEST_MARKER and exits.
const loginFlag = "--elicit-test-login"

func runLogin() {
	if err := os.WriteFile(os.Getenv("ELICIT_UI_TEST_MARKER"), []byte("signed in"), 0o600); err != nil {
		os.Exit(7)
	}
	os.Exit(0)
}

func signedIn() bool {
	_, err := os.Stat(os.Getenv("ELICIT_UI_TEST_MARKER"))
	return err == nil
}
