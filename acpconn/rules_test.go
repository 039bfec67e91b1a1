package acpconn

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/permissions"
	"github.com/elicit-dev/elicit/question"
)

func init() {
	// rule-asks asks permission in the shapes real agents send (see
	// permissions.TestDescribe), then writes a file and runs two commands
	// without asking; it says each outcome on a line.
	scripts["rule-asks"] = func(a *scripted) {
		p := a.prompt()
		wd, _ := os.Getwd()
		opts := []any{map[string]any{"optionId": "allow", "name": "Yes", "kind": "allow_once"}, map[string]any{"optionId": "reject", "name": "No", "kind": "reject_once"}}
		for _, tc := range []map[string]any{
			{"toolCallId": "t1", "name": "Bash", "title": "npm test", "kind": "execute", "rawInput": map[string]any{"command": "npm test"}},
			{"toolCallId": "t2", "title": "echo", "kind": "other", "rawInput": map[string]any{"message": "hi"},
				"_meta": map[string]any{"claudeCode": map[string]any{"toolName": "mcp__everything__echo"}}},
			{"toolCallId": "t3", "title": "Writing to .git/config", "kind": "edit", "_meta": map[string]any{"toolName": "write_file"},
				"rawInput":  map[string]any{"file_path": filepath.Join(wd, ".git/config"), "content": "x"},
				"content":   []any{map[string]any{"type": "diff", "path": filepath.Join(wd, ".git/config"), "oldText": "", "newText": "x"}},
				"locations": []any{map[string]any{"path": filepath.Join(wd, ".git/config")}}},
		} {
			r := a.request("session/request_permission", map[string]any{"sessionId": "s1", "toolCall": tc, "options": opts})
			b, _ := json.Marshal(r["result"])
			a.say(tc["toolCallId"].(string) + " " + string(b) + "\n")
		}
		outcome := func(name string, r map[string]any) {
			if e, ok := r["error"].(map[string]any); ok {
				a.say(name + " error " + e["message"].(string) + "\n")
			} else {
				a.say(name + " ok\n")
			}
		}
		outcome("write", a.request("fs/write_text_file", map[string]any{"sessionId": "s1", "path": filepath.Join(wd, "src", "a.go"), "content": "package a\n"}))
		touch := a.request("terminal/create", map[string]any{"sessionId": "s1", "command": "touch", "args": []any{"ran"}})
		outcome("touch", touch)
		if r, ok := touch["result"].(map[string]any); ok {
			a.request("terminal/wait_for_exit", map[string]any{"sessionId": "s1", "terminalId": r["terminalId"]})
		}
		outcome("rm", a.request("terminal/create", map[string]any{"sessionId": "s1", "command": "rm", "args": []any{"-f", "ran"}}))
		a.endTurn(p, "end_turn")
	}
}

// TestRuleFacts: a permission's question carries what rules read (the
// agent's tool name from toolCall.name or _meta, its raw input, its
// files, a file that runs code later); elicit's own write and command
// that a rule names are asked as permission questions, whatever the
// write and terminal policies, and what no rule names follows them.
func TestRuleFacts(t *testing.T) {
	dir := t.TempDir()
	must(t, os.Mkdir(filepath.Join(dir, "src"), 0o755))
	root, _ := filepath.EvalSymlinks(dir)
	set := permissions.NewSet()
	for _, r := range []struct {
		text string
		v    permissions.Verdict
	}{{"Edit(src/**)", permissions.Allow}, {"Bash(touch:*)", permissions.Allow}} {
		rule, err := permissions.Parse(r.text, r.v, permissions.Source{File: "c.toml"})
		must(t, err)
		set.Add(rule)
	}
	c := start(t, "rule-asks", Config{Dir: dir, Rules: set, Writes: WritesRefused, Terminals: TerminalsRefused})
	c.StartPrompt("go")
	want := []struct {
		name, risk string
		input      any
		files      []string
	}{
		{"Bash", "", map[string]any{"command": "npm test"}, nil},
		{"mcp__everything__echo", "", map[string]any{"message": "hi"}, nil},
		{"write_file", ".git/config", map[string]any{"file_path": filepath.Join(dir, ".git/config"), "content": "x"}, []string{filepath.Join(root, ".git/config"), filepath.Join(root, ".git/config")}},
	}
	for i, w := range want {
		q, _ := asked(t, c, question.Permission)
		tool := q.Tool
		if tool.Name != w.name || !reflect.DeepEqual(tool.Input, w.input) || !reflect.DeepEqual(tool.Files, w.files) || tool.RiskPath != w.risk || (w.risk != "") != (tool.Risk != "") {
			t.Errorf("question %d: name %q input %v files %q risk %q %q", i+1, tool.Name, tool.Input, tool.Files, tool.RiskPath, tool.Risk)
		}
		c.Answer(q, pick("reject"))
	}
	// The write a rule names is asked, under WritesRefused too.
	q, _ := asked(t, c, question.Permission)
	if q.Write == nil || q.Write.Path != "src/a.go" || !strings.Contains(q.Write.Why, "Edit(src/**) in c.toml") || !reflect.DeepEqual(q.Tool.Files, []string{filepath.Join(root, "src/a.go")}) {
		t.Fatalf("write question %+v %+v", q.Write, q.Tool)
	}
	c.Answer(q, pick(WriteAllow))
	// So is the command, under TerminalsRefused.
	q, seen := asked(t, c, question.Permission)
	if q.Tool.Kind != "execute" || !reflect.DeepEqual(q.Tool.Input, map[string]any{"command": "touch ran"}) || permissions.Describe(permissions.Tool{Kind: q.Tool.Kind, Title: q.Tool.Title, Input: q.Tool.Input}, root).Command != "touch ran" {
		t.Fatalf("command question %+v", q.Tool)
	}
	c.Answer(q, pick(CommandAllow))
	_, evs := until[TurnEnded](t, c)
	text := agentText(append(seen, evs...))
	for _, line := range []string{"write ok", "touch ok", "rm error Invalid params: command: refused: the user did not allow the agent's commands"} {
		if !strings.Contains(text, line) {
			t.Errorf("no %q in:\n%s", line, text)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "src", "a.go")); err != nil || string(b) != "package a\n" {
		t.Errorf("src/a.go: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
}
