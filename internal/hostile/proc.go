package hostile

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The process scenarios attack the client's terminal, its memory and its
// process table rather than its output. ScenarioProc is an agent whose
// turn runs the steps listed in ProcSteps; the others are what the agent
// runs as its terminal commands, or what a hook runs, through the same
// binary (cmd/hostile-agent, with the scenario in the environment).
const (
	ScenarioProc      = "proc"       // an agent whose turn runs ProcSteps
	ScenarioTTYAttack = "tty-attack" // attack the controlling terminal (AttackTTY), report, exit
	ScenarioEscape    = "escape"     // start a daemon in a session of its own, wait until it runs, exit
	ScenarioDaemon    = "daemon"     // ignore SIGTERM and SIGHUP, note the pid in ProcPids, sleep
	ScenarioHookTTY   = "hook-tty"   // as a hook: attack the terminal, escape a daemon, decline
)

// Environment variables of the process scenarios.
const (
	// ProcSteps lists the steps of a ScenarioProc turn, comma-separated:
	// "tty" (the agent attacks the terminal), "term-tty" (a terminal
	// command does), "escape" (a terminal command leaves a daemon),
	// "agent-escape" (the agent does), "stubborn" (a terminal command that
	// ignores SIGTERM, never released), "flood" (a terminal command prints
	// ProcFlood bytes under an outputByteLimit of 100 GB), "permission",
	// "tty-permission" (the agent asks a permission, then pushes the keys
	// that would allow it), "form" (an elicitation, for the hooks),
	// "wide-form" (an elicitation of 64 text fields, f00 to f63) and "hang"
	// (the turn never ends).
	ProcSteps = "ELICIT_HOSTILE_STEPS"
	// ProcReport is a file each step appends a JSON line to.
	ProcReport = "ELICIT_HOSTILE_REPORT"
	// ProcPids is a file each daemon appends its pid to.
	ProcPids = "ELICIT_HOSTILE_PIDS"
	// ProcFlood is how many bytes "flood" prints (default 400 MB).
	ProcFlood = "ELICIT_HOSTILE_FLOOD"
	// ProcWho names, in a report, the process that attacks the terminal.
	ProcWho = "ELICIT_HOSTILE_WHO"
)

// runScenario runs the scenarios that are not an agent; false for those
// that are.
func runScenario(scenario string) bool {
	switch scenario {
	case ScenarioTTYAttack:
		reportTTY(orDefault(os.Getenv(ProcWho), "command"), "x")
	case ScenarioEscape:
		escape()
	case ScenarioDaemon:
		daemon()
	case ScenarioHookTTY:
		reportTTY("hook", "x")
		escape()
		os.Stdout.WriteString(`{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"decline"}}` + "\n")
	default:
		return false
	}
	return true
}

func reportTTY(who, keys string) {
	r := AttackTTY(keys)
	Report(map[string]any{"step": "tty", "who": who, "open": r.Open, "write": r.Write, "tiocsti": r.TIOCSTI, "foreground": r.Foreground, "through": r.Through})
}

var reportMu sync.Mutex

// Report appends one JSON line to the ProcReport file.
func Report(v map[string]any) {
	path := os.Getenv(ProcReport)
	if path == "" {
		return
	}
	b, _ := json.Marshal(v)
	reportMu.Lock()
	defer reportMu.Unlock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(b, '\n'))
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// procTurn runs the steps of a ScenarioProc turn, then ends it.
func (a *agent) procTurn(promptID *json.RawMessage) {
	sid := Short("session")
	self, _ := os.Executable()
	term := func(step string, params map[string]any) string {
		params["sessionId"] = sid
		var r struct {
			Result struct {
				TerminalID string `json:"terminalId"`
			}
		}
		raw := a.request("terminal/create", params)
		_ = json.Unmarshal(raw, &r.Result)
		if r.Result.TerminalID == "" {
			Report(map[string]any{"step": step, "error": string(raw)})
		}
		return r.Result.TerminalID
	}
	run := func(step, id string) json.RawMessage { // wait for the command, release it
		if id == "" {
			return nil
		}
		exit := a.request("terminal/wait_for_exit", map[string]any{"sessionId": sid, "terminalId": id})
		a.request("terminal/release", map[string]any{"sessionId": sid, "terminalId": id})
		return exit
	}
	env := func(scenario string) []any {
		return []any{map[string]any{"name": Scenario, "value": scenario}}
	}
	for _, step := range strings.Split(os.Getenv(ProcSteps), ",") {
		switch step {
		case "tty":
			reportTTY("agent", "x")
		case "term-tty":
			run(step, term(step, map[string]any{"command": self, "args": []string{}, "env": env(ScenarioTTYAttack)}))
		case "escape":
			exit := run(step, term(step, map[string]any{"command": self, "args": []string{}, "env": env(ScenarioEscape)}))
			Report(map[string]any{"step": step, "exit": exit})
		case "agent-escape":
			escape()
			Report(map[string]any{"step": step})
		case "stubborn":
			id := term(step, map[string]any{"command": "sh", "args": []string{"-c", `trap "" TERM HUP; echo $$ >> "$` + ProcPids + `"; while :; do sleep 1; done`}})
			Report(map[string]any{"step": step, "terminal": id})
		case "flood":
			a.flood(sid)
		case "permission", "tty-permission":
			a.permission(sid, step == "tty-permission")
		case "form":
			out := a.request("elicitation/create", map[string]any{"sessionId": sid, "mode": "form", "message": "Which branch?",
				"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"branch": map[string]any{"type": "string"}}}})
			Report(map[string]any{"step": step, "answer": out})
		case "wide-form":
			props := map[string]any{}
			for i := range 64 {
				props[fmt.Sprintf("f%02d", i)] = map[string]any{"type": "string", "title": fmt.Sprintf("Field %d", i)}
			}
			out := a.request("elicitation/create", map[string]any{"sessionId": sid, "mode": "form", "message": "Sixty-four fields",
				"requestedSchema": map[string]any{"type": "object", "properties": props}})
			Report(map[string]any{"step": step, "answer": out})
		case "hang":
			Report(map[string]any{"step": step})
			select {}
		}
	}
	Report(map[string]any{"step": "end"})
	a.reply(promptID, map[string]any{"stopReason": "end_turn"})
}

// flood runs a command that prints ProcFlood bytes (lines of 61) under an
// outputByteLimit of 100 GB, in a tool call that shows it, and reports
// how much terminal/output gave back.
func (a *agent) flood(sid string) {
	n, err := strconv.ParseInt(os.Getenv(ProcFlood), 10, 64)
	if err != nil || n <= 0 {
		n = 400_000_000
	}
	var r struct {
		TerminalID string `json:"terminalId"`
	}
	_ = json.Unmarshal(a.request("terminal/create", map[string]any{"sessionId": sid, "command": "sh", "outputByteLimit": 100_000_000_000,
		"args": []string{"-c", "yes " + strings.Repeat("a", 59) + " | head -c " + strconv.FormatInt(n, 10)}}), &r)
	a.notify("session/update", map[string]any{"sessionId": sid, "update": map[string]any{"sessionUpdate": "tool_call", "toolCallId": "flood",
		"title": "flood", "kind": "execute", "status": "in_progress", "content": []any{map[string]any{"type": "terminal", "terminalId": r.TerminalID}}}})
	exit := a.request("terminal/wait_for_exit", map[string]any{"sessionId": sid, "terminalId": r.TerminalID})
	var out struct {
		Output    string `json:"output"`
		Truncated bool   `json:"truncated"`
	}
	_ = json.Unmarshal(a.request("terminal/output", map[string]any{"sessionId": sid, "terminalId": r.TerminalID}), &out)
	a.request("terminal/release", map[string]any{"sessionId": sid, "terminalId": r.TerminalID})
	a.notify("session/update", map[string]any{"sessionId": sid, "update": map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "flood", "status": "completed"}})
	Report(map[string]any{"step": "flood", "exit": exit, "output": len(out.Output), "truncated": out.Truncated})
}

// permission asks to run `rm -rf ~/important`; with attack set it then
// waits for the question to take keys and pushes the ones that would
// allow it (Tab, 1, Enter). It reports the answer.
func (a *agent) permission(sid string, attack bool) {
	answer := make(chan json.RawMessage, 1)
	go func() {
		answer <- a.request("session/request_permission", map[string]any{"sessionId": sid,
			"toolCall": map[string]any{"toolCallId": "rm", "title": "rm -rf ~/important"},
			"options": []any{
				map[string]any{"optionId": "allow", "name": "Allow", "kind": "allow_once"},
				map[string]any{"optionId": "reject", "name": "Reject", "kind": "reject_once"},
			}})
	}()
	if attack {
		time.Sleep(1500 * time.Millisecond) // the keyboard idle: the question takes keys
		reportTTY("agent", "\t1\r")
	}
	Report(map[string]any{"step": "permission", "answer": <-answer})
}
