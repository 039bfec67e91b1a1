package acpconn

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func init() {
	// terminal-rules tries what terminal/* must refuse or bound, and
	// reports each answer as one JSON object.
	scripts["terminal-rules"] = func(a *scripted) {
		p := a.prompt()
		res := map[string]any{}
		call := func(name, method string, params map[string]any) map[string]any {
			if params["sessionId"] == nil {
				params["sessionId"] = "s1"
			}
			m := a.request(method, params)
			if e, ok := m["error"].(map[string]any); ok {
				res[name] = map[string]any{"error": e}
				return nil
			}
			r, _ := m["result"].(map[string]any)
			res[name] = r
			return r
		}
		wd, _ := os.Getwd()
		call("foreign", "terminal/create", map[string]any{"sessionId": "not-a-session", "command": "touch", "args": []string{filepath.Join(wd, "foreign")}})
		call("refusable", "terminal/create", map[string]any{"command": "touch", "args": []string{filepath.Join(wd, "ran")}})
		// 3 MB of output with a limit of 100 GB: the last MiB is kept.
		if big := call("big", "terminal/create", map[string]any{"command": "sh", "outputByteLimit": 100000000000,
			"args": []string{"-c", `head -c 3000000 /dev/zero | tr '\0' a; echo END`}}); big != nil {
			call("bigwait", "terminal/wait_for_exit", map[string]any{"terminalId": big["terminalId"]})
			o := call("bigout", "terminal/output", map[string]any{"terminalId": big["terminalId"]})
			out, _ := o["output"].(string)
			res["bigout"] = map[string]any{"len": len(out), "truncated": o["truncated"], "end": strings.HasSuffix(out, "aaaEND\n")}
			call("bigrelease", "terminal/release", map[string]any{"terminalId": big["terminalId"]})
		}
		// A wait_for_exit the agent withdraws is answered -32800.
		if slow := call("slow", "terminal/create", map[string]any{"command": "sleep", "args": []string{"30"}}); slow != nil {
			a.nextID++
			a.send(map[string]any{"jsonrpc": "2.0", "id": a.nextID, "method": "terminal/wait_for_exit", "params": map[string]any{"sessionId": "s1", "terminalId": slow["terminalId"]}})
			a.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancel_request", "params": map[string]any{"requestId": a.nextID}})
			for {
				m := a.recv()
				if id, ok := m["id"].(float64); ok && int(id) == a.nextID && m["method"] == nil {
					res["cancelled"] = m["error"]
					break
				}
			}
			call("slowrelease", "terminal/release", map[string]any{"terminalId": slow["terminalId"]})
		}
		// Terminals held at once: the one past MaxTerminals is refused.
		for i := 1; i <= MaxTerminals+1; i++ {
			if call("many", "terminal/create", map[string]any{"command": "true"}) == nil {
				res["refusedAt"] = i
				break
			}
		}
		b, _ := json.Marshal(res)
		a.say(string(b))
		a.endTurn(p, "end_turn")
	}
}

// runRules runs terminal-rules under cfg and returns its report, the
// notices elicit gave, and the session directory.
func runRules(t *testing.T, cfg Config) (map[string]any, []Notice, string) {
	t.Helper()
	c := start(t, "terminal-rules", cfg)
	c.StartPrompt("go")
	end, evs := until[TurnEnded](t, c)
	if end.StopReason != "end_turn" {
		t.Fatalf("turn: %q %v", end.StopReason, end.Err)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(agentText(evs)), &res); err != nil {
		t.Fatalf("%v: %s", err, agentText(evs))
	}
	var notices []Notice
	for _, ev := range evs {
		if n, ok := ev.(Notice); ok {
			notices = append(notices, n)
		}
	}
	return res, notices, c.Root()
}

// errorOf is the error an answer in the report carries, or nil.
func errorOf(res map[string]any, name string) map[string]any {
	r, _ := res[name].(map[string]any)
	e, _ := r["error"].(map[string]any)
	return e
}

// Issue 27, items 3 and 9: terminal/create is checked against the session
// id like fs/*; an outputByteLimit of 100 GB is clamped to MaxOutputLimit
// (the tail kept); a withdrawn wait_for_exit is answered -32800; at most
// MaxTerminals are held; and every command is reported.
func TestTerminalRules(t *testing.T) {
	res, notices, root := runRules(t, Config{})
	if e := errorOf(res, "foreign"); e == nil || e["code"] != -32602.0 {
		t.Errorf("a foreign session's terminal/create: %v", res["foreign"])
	}
	if _, err := os.Stat(filepath.Join(root, "foreign")); err == nil {
		t.Error("the foreign session's command ran")
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err != nil {
		t.Errorf("an allowed command did not run: %v", res["refusable"])
	}
	big, _ := res["bigout"].(map[string]any)
	if big["len"] != float64(MaxOutputLimit) || big["truncated"] != true || big["end"] != true {
		t.Errorf("output of 3 MB under a 100 GB limit: %v (want the last %d bytes, truncated)", big, MaxOutputLimit)
	}
	if e, _ := res["cancelled"].(map[string]any); e["code"] != -32800.0 {
		t.Errorf("withdrawn wait_for_exit answered %v", res["cancelled"])
	}
	// The agent held one when it began (the touch; the big and the slow
	// were released): its MaxTerminals-th new one is refused.
	if res["refusedAt"] != float64(MaxTerminals) {
		t.Errorf("refused at terminal %v, want %d", res["refusedAt"], MaxTerminals)
	}
	var ran []string
	for _, n := range notices {
		if strings.HasPrefix(n.Text, "the agent runs ") {
			ran = append(ran, n.Text)
		}
	}
	want := fmt.Sprintf("the agent runs `touch %s`", filepath.Join(root, "ran"))
	if len(ran) != 2+MaxTerminals || ran[0] != want {
		t.Errorf("%d commands reported, the first %q; want %d, the first %q", len(ran), ran[:min(len(ran), 2)], 2+MaxTerminals, want)
	}
}

// Issue 27, item 5: with TerminalsRefused (elicit -p without --approve),
// no command runs; the agent is told why, and so is the user.
func TestTerminalsRefused(t *testing.T) {
	res, notices, root := runRules(t, Config{Terminals: TerminalsRefused, TerminalsRefusedWhy: "run with --approve to allow them"})
	e := errorOf(res, "refusable")
	if e == nil || e["code"] != -32602.0 || !strings.Contains(fmt.Sprint(e["message"]), "--approve") {
		t.Errorf("refused command answered %v", res["refusable"])
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
		t.Error("a refused command ran")
	}
	found := false
	for _, n := range notices {
		found = found || n.Error && strings.Contains(n.Text, "refused the agent's command `touch "+filepath.Join(root, "ran")+"`")
	}
	if !found {
		t.Errorf("no notice of the refusal: %+v", notices)
	}
}
