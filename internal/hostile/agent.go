// Package hostile is a scripted ACP agent that attacks its client's output:
// every string it sends (agent info, auth methods, modes, config options,
// message chunks, thoughts, tool calls, plans, commands, permission
// options, elicitation forms and URLs, ids, errors, stop reasons, stderr)
// carries every entry of Attacks. The black-box tests run elicit against it
// through every front end. elicit runs it as a hidden sub-command:
//
//	hostile.Run(ctx, os.Stdin, os.Stdout)
//
// The environment variable Scenario picks what it does (see the Scenario*
// constants); it speaks newline-delimited JSON-RPC and builds every message
// itself, so each byte is the test's choice.
package hostile

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
)

// Scenario is the environment variable that picks a scenario.
const Scenario = "ELICIT_HOSTILE_SCENARIO"

// The scenarios.
const (
	ScenarioTurn    = ""        // a whole turn with every kind of update and question
	ScenarioAuth    = "auth"    // session/new needs authentication first
	ScenarioRefuse  = "refuse"  // session/new fails with a hostile error
	ScenarioExit    = "exit"    // the agent writes to stderr and exits mid-turn
	ScenarioNoQuest = "noquest" // the turn without questions (for the full screen)
	// and the process scenarios (proc.go)
)

// Run serves one client on in and out until in ends or ctx is done.
func Run(ctx context.Context, in io.Reader, out io.Writer) error {
	if runScenario(os.Getenv(Scenario)) {
		return nil
	}
	a := &agent{out: out, waiting: map[int]chan json.RawMessage{}, scenario: os.Getenv(Scenario), stderr: os.Stderr}
	r := bufio.NewReaderSize(in, 1<<20)
	for ctx.Err() == nil {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			a.handle(line)
		}
		if err != nil {
			return nil
		}
	}
	return ctx.Err()
}

type agent struct {
	mu       sync.Mutex // one message at a time on out
	out      io.Writer
	stderr   io.Writer
	scenario string
	nextID   int
	waiting  map[int]chan json.RawMessage // our requests, by id
	authed   bool
	cwd      string // the session directory, from session/new
}

type message struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params json.RawMessage  `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  json.RawMessage  `json:"error,omitempty"`
}

func (a *agent) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the scripts are fixed values: a bug here is the test's
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.out.Write(append(b, '\n'))
}

func (a *agent) reply(id *json.RawMessage, result any) {
	a.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (a *agent) fail(id *json.RawMessage, code int, msg string, data any) {
	a.send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg, "data": data}})
}

func (a *agent) notify(method string, params any) {
	a.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// request sends a request and waits for its response (nil if none comes).
func (a *agent) request(method string, params any) json.RawMessage {
	a.mu.Lock()
	a.nextID++
	id := a.nextID
	ch := make(chan json.RawMessage, 1)
	a.waiting[id] = ch
	a.mu.Unlock()
	a.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return <-ch
}

func (a *agent) handle(line []byte) {
	var m message
	if json.Unmarshal(line, &m) != nil {
		return
	}
	if m.Method == "" && m.ID != nil { // a response to one of our requests
		var id int
		json.Unmarshal(*m.ID, &id)
		a.mu.Lock()
		ch := a.waiting[id]
		delete(a.waiting, id)
		a.mu.Unlock()
		if ch != nil {
			ch <- append(m.Result, m.Error...)
		}
		return
	}
	switch m.Method {
	case "initialize":
		a.reply(m.ID, initializeResult())
	case "authenticate":
		a.authed = true
		a.reply(m.ID, map[string]any{})
	case "session/new":
		a.cwd = cwdOf(m.Params)
		switch {
		case a.scenario == ScenarioRefuse:
			a.fail(m.ID, -32603, Payload("error message"), map[string]any{"detail": Payload("error data")})
		case a.scenario == ScenarioAuth && !a.authed:
			a.fail(m.ID, -32000, Payload("auth required"), nil)
		default:
			a.reply(m.ID, newSessionResult())
		}
	case "session/prompt":
		if a.scenario == ScenarioProc {
			go a.procTurn(m.ID)
		} else {
			go a.turn(m.ID)
		}
	case "session/set_mode", "session/set_config_option":
		a.reply(m.ID, map[string]any{})
	case "session/cancel":
	default:
		if m.ID != nil {
			a.fail(m.ID, -32601, Payload("unknown method"), nil)
		}
	}
}

func initializeResult() any {
	return map[string]any{
		"protocolVersion":   1,
		"agentCapabilities": map[string]any{"loadSession": false},
		"agentInfo":         map[string]any{"name": Short("agent name"), "title": Payload("agent title"), "version": Short("version")},
		"authMethods": []any{
			map[string]any{"id": Short("auth id"), "name": Payload("auth name"), "description": Payload("auth description")},
		},
	}
}

func newSessionResult() any {
	return map[string]any{
		"sessionId": Short("session"),
		"modes": map[string]any{
			"currentModeId": Short("mode a"),
			"availableModes": []any{
				map[string]any{"id": Short("mode a"), "name": Payload("mode name"), "description": Payload("mode description")},
				map[string]any{"id": Short("mode b"), "name": "Plain mode"},
			},
		},
		"configOptions": configOptions(),
	}
}

func configOptions() []any {
	return []any{
		map[string]any{"type": "select", "id": Short("option"), "name": Payload("option name"), "description": Payload("option description"),
			"currentValue": Short("value"), "options": []any{
				map[string]any{"value": Short("value"), "name": Payload("value name")},
				map[string]any{"value": "plain", "name": "Plain value"},
			}},
		map[string]any{"type": "boolean", "id": Short("switch"), "name": Payload("switch name"), "currentValue": true},
	}
}

// stderrBytes is what the agent writes on its stderr: raw, not JSON.
func stderrBytes() string {
	return fmt.Sprintf("%s\n%s\n", Payload("stderr"), Payload("stderr again"))
}
