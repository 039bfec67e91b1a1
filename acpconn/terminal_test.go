package acpconn

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func init() {
	// terminal runs commands through the client's terminal/* methods and
	// reports every answer as one JSON message.
	scripts["terminal"] = func(a *scripted) {
		p := a.prompt()
		wd, _ := os.Getwd()
		_ = os.Mkdir(filepath.Join(wd, "sub"), 0o755)
		res := map[string]any{}
		call := func(name, method string, params map[string]any) map[string]any {
			params["sessionId"] = "s1"
			m := a.request(method, params)
			if e, ok := m["error"]; ok {
				res[name] = map[string]any{"error": e}
				return nil
			}
			r, _ := m["result"].(map[string]any)
			res[name] = r
			return r
		}
		// 1: waits for the agent's go-ahead, so the tool call names it first.
		t1 := call("create1", "terminal/create", map[string]any{"command": "sh", "cwd": filepath.Join(wd, "sub"),
			"args": []string{"-c", `while [ ! -e ../go ]; do sleep 0.01; done; printf 'h\303\251llo\n'; echo "$FOO"; pwd; echo err >&2; printf '\033]52;c;cHduZWQ=\007x\n'; exit 3`},
			"env":  []map[string]any{{"name": "FOO", "value": "bar"}}})
		id1 := t1["terminalId"]
		a.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "Run it", "kind": "execute", "status": "in_progress",
			"content": []any{map[string]any{"type": "terminal", "terminalId": id1}}})
		call("early", "terminal/output", map[string]any{"terminalId": id1})
		_ = os.WriteFile(filepath.Join(wd, "go"), nil, 0o644)
		call("wait1", "terminal/wait_for_exit", map[string]any{"terminalId": id1})
		call("output1", "terminal/output", map[string]any{"terminalId": id1})
		call("release1", "terminal/release", map[string]any{"terminalId": id1})
		call("gone1", "terminal/output", map[string]any{"terminalId": id1})
		// 2: output over its byte limit.
		t2 := call("create2", "terminal/create", map[string]any{"command": "printf", "args": []string{"a\303\251\303\251\303\251\303\251"}, "outputByteLimit": 5})
		call("wait2", "terminal/wait_for_exit", map[string]any{"terminalId": t2["terminalId"]})
		call("output2", "terminal/output", map[string]any{"terminalId": t2["terminalId"]})
		// 3: killed; 4: left running for Close, deaf to SIGTERM so that
		// ending it takes the grace.
		for _, n := range []string{"3", "4"} {
			script := map[string]string{"3": "echo $$; exec sleep 100", "4": `echo $$; trap "" TERM; exec sleep 100`}[n]
			t := call("create"+n, "terminal/create", map[string]any{"command": "sh", "args": []string{"-c", script}})
			for {
				o := call("pid"+n, "terminal/output", map[string]any{"terminalId": t["terminalId"]})
				if strings.HasSuffix(o["output"].(string), "\n") {
					break
				}
			}
			if n == "3" {
				call("kill3", "terminal/kill", map[string]any{"terminalId": t["terminalId"]})
				call("output3", "terminal/output", map[string]any{"terminalId": t["terminalId"]})
			}
		}
		call("outside", "terminal/create", map[string]any{"command": "true", "cwd": "/"})
		call("missing", "terminal/create", map[string]any{"command": "no-such-command-here"})
		b, _ := json.Marshal(res)
		a.say(string(b))
		a.endTurn(p, "end_turn")
	}
}

func TestTerminal(t *testing.T) {
	c := start(t, "terminal", Config{})
	c.StartPrompt("go")
	end, evs := until[TurnEnded](t, c)
	if end.StopReason != "end_turn" {
		t.Fatalf("turn: %q %v", end.StopReason, end.Err)
	}
	var res map[string]map[string]any
	if err := json.Unmarshal([]byte(agentText(evs)), &res); err != nil {
		t.Fatalf("%v: %s", err, agentText(evs))
	}
	out1, _ := res["output1"]["output"].(string)
	sub := filepath.Join(c.Root(), "sub")
	want := "h\u00e9llo\nbar\n" + sub + "\nerr\n\x1b]52;c;cHduZWQ=\x07x\n"
	if out1 != want || res["output1"]["truncated"] != false {
		t.Errorf("output %q, want %q (the agent gets it raw)", out1, want)
	}
	if code := res["wait1"]["exitCode"]; code != 3.0 {
		t.Errorf("wait_for_exit %v", res["wait1"])
	}
	if st, _ := res["output1"]["exitStatus"].(map[string]any); st["exitCode"] != 3.0 {
		t.Errorf("output's exit status %v", res["output1"])
	}
	if _, ok := res["early"]["exitStatus"]; ok {
		t.Errorf("exit status before the command ended: %v", res["early"])
	}
	if res["gone1"]["error"] == nil {
		t.Error("a released terminal still answers")
	}
	if o := res["output2"]; o["output"] != "\u00e9\u00e9" || o["truncated"] != true {
		t.Errorf("limit 5 over a\u00e9\u00e9\u00e9\u00e9: %v (want the last whole characters)", o)
	}
	if st, _ := res["output3"]["exitStatus"].(map[string]any); st["signal"] != "SIGTERM" {
		t.Errorf("killed terminal: %v", res["output3"])
	}
	for _, k := range []string{"outside", "missing"} {
		if res[k]["error"] == nil {
			t.Errorf("%s: no error: %v", k, res[k])
		}
	}

	// What the UI saw: the output, sanitized, named by its tool call.
	var streamed strings.Builder
	var exit *TerminalOutput
	for _, ev := range evs {
		if o, ok := ev.(TerminalOutput); ok && o.TerminalID == "term-1" {
			streamed.WriteString(o.Chunk)
			if o.Exited {
				exit = &o
			}
		}
	}
	if s := streamed.String(); !strings.Contains(s, "h\u00e9llo\nbar\n") || strings.Contains(s, "\x1b") || !strings.Contains(s, "x\n") {
		t.Errorf("streamed %q", s)
	}
	if exit == nil || exit.ToolCallID != "t1" || exit.Exit.Code != 3 {
		t.Errorf("exit event %+v", exit)
	}

	pid := func(k string) int {
		s, _ := res[k]["output"].(string)
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			t.Fatalf("%s: %q", k, s)
		}
		return n
	}
	alive := func(p int) bool { return !errors.Is(syscall.Kill(p, 0), syscall.ESRCH) }
	if p := pid("pid3"); alive(p) {
		t.Errorf("killed sleep %d still runs", p)
	}
	p4 := pid("pid4")
	if !alive(p4) {
		t.Fatal("the unreleased sleep already ended")
	}
	// The agent exits after its turn, and the connection's end starts the
	// kills (the grace for p4) before Close; Close still waits for them.
	until[AgentExited](t, c)
	c.Close()
	if alive(p4) {
		t.Errorf("sleep %d outlived Close", p4)
	}
}

func TestStreamCut(t *testing.T) {
	long := []byte(strings.Repeat("é", streamHold)) // no line break, 2 bytes a character
	for _, tc := range []struct {
		in   []byte
		want int
	}{
		{[]byte("ab\ncd"), 3},
		{[]byte("abcd"), 0},
		{long, len(long)},
		{long[:len(long)-1], len(long) - 2},
	} {
		if got := streamCut(tc.in); got != tc.want {
			t.Errorf("streamCut(%d bytes) = %d, want %d", len(tc.in), got, tc.want)
		}
	}
}
