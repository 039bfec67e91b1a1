package hostile

import (
	"encoding/json"
	"path/filepath"
)

// The rules scenarios ask what permission rules decide (issue 33), in the
// shapes claude-agent-acp sends: the tool's name in toolCall.name (or, for
// an MCP tool, _meta.claudeCode.toolName), its rawInput, kind, diffs and
// locations, and the options allow_once, allow_always and reject_once
// (a rule must never pick the always one). Each outcome is a line of the
// reply: "NAME: chose OPTION" or "NAME: cancelled".
const (
	// ScenarioRules asks permission for the calls in RuleCalls, in order.
	ScenarioRules = "rules"
	// ScenarioRuleGates writes src/b.go without asking, then runs
	// `touch made` and `rm -rf build` through terminal/create.
	ScenarioRuleGates = "rule-gates"
	// ScenarioNpmTest asks permission for npm test alone (the first of
	// RuleCalls), for "always allow here" end to end.
	ScenarioNpmTest = "npm-test"
)

// RuleCalls name the calls ScenarioRules asks about, in order.
var RuleCalls = []string{"npm test", "git status", "rm -rf build", "edit src/a.go", "edit .git/config", "fetch docs", "fetch other", "mcp echo"}

func init() {
	fileScenarios[ScenarioRules] = ruleAsks
	fileScenarios[ScenarioRuleGates] = ruleGates
	fileScenarios[ScenarioNpmTest] = func(a *agent, sid string) { ruleAsk(a, sid, 0, bash("t-npm", "npm test")) }
}

// bash is a Bash call as claude-agent-acp asks for it.
func bash(id, cmd string) map[string]any {
	return map[string]any{"toolCallId": id, "name": "Bash", "title": cmd, "kind": "execute", "status": "pending",
		"rawInput": map[string]any{"command": cmd, "description": "run " + cmd}}
}

// ruleAsk asks permission for call i of RuleCalls, tc, and says the
// outcome.
func ruleAsk(a *agent, sid string, i int, tc map[string]any) {
	resp := a.request("session/request_permission", map[string]any{"sessionId": sid, "toolCall": tc, "options": []any{
		map[string]any{"optionId": "allow", "name": "Yes", "kind": "allow_once"},
		map[string]any{"optionId": "always", "name": "Yes, and don't ask again", "kind": "allow_always"},
		map[string]any{"optionId": "reject", "name": "No", "kind": "reject_once"},
	}})
	a.say(sid, RuleCalls[i]+": "+outcome(resp))
}

func ruleAsks(a *agent, sid string) {
	edit := func(id, rel, text string) map[string]any {
		path := filepath.Join(a.cwd, rel)
		return map[string]any{"toolCallId": id, "name": "Edit", "title": "Edit " + rel, "kind": "edit", "status": "pending",
			"rawInput":  map[string]any{"file_path": path, "old_string": "", "new_string": text},
			"content":   []any{map[string]any{"type": "diff", "path": path, "oldText": nil, "newText": text}},
			"locations": []any{map[string]any{"path": path}}}
	}
	fetch := func(id, url string) map[string]any {
		return map[string]any{"toolCallId": id, "name": "WebFetch", "title": "Fetch " + url, "kind": "fetch", "status": "pending",
			"rawInput": map[string]any{"url": url, "prompt": "Summarise the page"}}
	}
	calls := []map[string]any{
		bash("t-npm", "npm test"), bash("t-git", "git status"), bash("t-rm", "rm -rf build"),
		edit("t-src", "src/a.go", "package a\n"), edit("t-git-config", ".git/config", FSMonitorText),
		fetch("t-docs", "https://docs.example.com/guide"), fetch("t-other", "https://other.example.org/page"),
		{"toolCallId": "t-mcp", "title": "echo", "kind": "other", "status": "pending", "rawInput": map[string]any{"message": "hi"},
			"_meta": map[string]any{"claudeCode": map[string]any{"toolName": "mcp__everything__echo"}}},
	}
	for i, tc := range calls {
		ruleAsk(a, sid, i, tc)
	}
}

func ruleGates(a *agent, sid string) {
	a.say(sid, "write src/b.go: "+outcome(a.writeFile(sid, "src/b.go", "package b\n")))
	for _, c := range [][]string{{"touch", "made"}, {"rm", "-rf", "build"}} {
		resp := a.request("terminal/create", map[string]any{"sessionId": sid, "command": c[0], "args": c[1:]})
		var r struct {
			TerminalID string `json:"terminalId"`
		}
		if json.Unmarshal(resp, &r) == nil && r.TerminalID != "" {
			a.request("terminal/wait_for_exit", map[string]any{"sessionId": sid, "terminalId": r.TerminalID})
			a.request("terminal/release", map[string]any{"sessionId": sid, "terminalId": r.TerminalID})
		}
		a.say(sid, "run "+c[0]+": "+outcome(resp))
	}
}
