package acpconn

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func init() {
	// terminal-pipeline sends terminal requests back to back, without
	// waiting for answers (as an agent may), and reports the answers in
	// the order they came: a list of "id:result-or-error" strings.
	scripts["terminal-pipeline"] = func(a *scripted) {
		p := a.prompt()
		create := func(script string) any {
			r := a.request("terminal/create", map[string]any{"sessionId": "s1", "command": "sh", "args": []string{"-c", script}})
			res, _ := r["result"].(map[string]any)
			return res["terminalId"]
		}
		// pipelined sends requests at once, then reads their answers.
		pipelined := func(reqs ...[2]any) []string {
			ids := map[int]bool{}
			for _, r := range reqs {
				a.nextID++
				ids[a.nextID] = true
				a.send(map[string]any{"jsonrpc": "2.0", "id": a.nextID, "method": r[0], "params": r[1]})
			}
			var got []string
			for len(got) < len(reqs) {
				m := a.recv()
				id, ok := m["id"].(float64)
				if !ok || m["method"] != nil || !ids[int(id)] {
					continue
				}
				res, _ := json.Marshal(m["result"])
				if e, ok := m["error"].(map[string]any); ok {
					res = []byte(fmt.Sprintf("error %v", e["code"]))
				}
				got = append(got, fmt.Sprintf("%d:%s", int(id), res))
			}
			return got
		}
		out := map[string][]string{}
		// A command that ignores SIGTERM: kill takes the grace, then SIGKILL.
		t1 := create(`trap "" TERM; while :; do sleep 0.05; done`)
		out["kill-release"] = pipelined(
			[2]any{"terminal/kill", map[string]any{"sessionId": "s1", "terminalId": t1}},
			[2]any{"terminal/release", map[string]any{"sessionId": "s1", "terminalId": t1}},
			[2]any{"terminal/output", map[string]any{"sessionId": "s1", "terminalId": t1}})
		t2 := create(`sleep 30; exit 4`)
		out["wait-release"] = pipelined(
			[2]any{"terminal/wait_for_exit", map[string]any{"sessionId": "s1", "terminalId": t2}},
			[2]any{"terminal/release", map[string]any{"sessionId": "s1", "terminalId": t2}})
		t3 := create(`trap "" TERM; while :; do sleep 0.05; done`)
		out["wait-kill"] = pipelined(
			[2]any{"terminal/wait_for_exit", map[string]any{"sessionId": "s1", "terminalId": t3}},
			[2]any{"terminal/kill", map[string]any{"sessionId": "s1", "terminalId": t3}},
			[2]any{"terminal/release", map[string]any{"sessionId": "s1", "terminalId": t3}})
		// Requests about a terminal released by a pipelined kill and
		// release: each is refused, after the release, in the order sent.
		t4 := create(`trap "" TERM; while :; do sleep 0.05; done`)
		after := [][2]any{
			{"terminal/kill", map[string]any{"sessionId": "s1", "terminalId": t4}},
			{"terminal/release", map[string]any{"sessionId": "s1", "terminalId": t4}},
		}
		for _, m := range []string{"output", "wait_for_exit", "kill", "release", "output", "wait_for_exit", "kill", "release"} {
			after = append(after, [2]any{"terminal/" + m, map[string]any{"sessionId": "s1", "terminalId": t4}})
		}
		out["released"] = pipelined(after...)
		b, _ := json.Marshal(out)
		a.say(string(b))
		a.endTurn(p, "end_turn")
	}
}

// Issue 27, item 10: kill, release and wait_for_exit pipelined on one
// terminal are handled and answered in the order they were sent: a
// release after a kill is answered (it was not, for 40 s), a
// wait_for_exit before a release gets the exit (not "no terminal"), and a
// request after the release is refused, after the release's answer; many
// requests after it are refused in the order they came (issue 34, item
// 12: they were answered in any order).
func TestTerminalRequestsInOrder(t *testing.T) {
	c := start(t, "terminal-pipeline", Config{})
	c.StartPrompt("go")
	end, evs := until[TurnEnded](t, c)
	if end.StopReason != "end_turn" {
		t.Fatalf("turn: %q %v", end.StopReason, end.Err)
	}
	var got map[string][]string
	if err := json.Unmarshal([]byte(agentText(evs)), &got); err != nil {
		t.Fatalf("%v: %s", err, agentText(evs))
	}
	want := map[string][]string{
		"kill-release": {"2:{}", "3:{}", "4:error -32602"},
		"wait-release": {"6:{\"signal\":\"SIGTERM\"}", "7:{}"}, // the release kills it
		"wait-kill":    {"9:{\"signal\":\"SIGKILL\"}", "10:{}", "11:{}"},
		"released": {"13:{}", "14:{}", "15:error -32602", "16:error -32602", "17:error -32602", "18:error -32602",
			"19:error -32602", "20:error -32602", "21:error -32602", "22:error -32602"},
	}
	for k, w := range want {
		// A kill that comes before the shell set its trap ends it with SIGTERM.
		if k == "wait-kill" {
			got[k] = strings.Split(strings.Replace(strings.Join(got[k], "\n"), "SIGTERM", "SIGKILL", 1), "\n")
		}
		if fmt.Sprint(got[k]) != fmt.Sprint(w) {
			t.Errorf("%s: answers %q, want %q", k, got[k], w)
		}
	}
}
