package acpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/permissions"
	"github.com/elicit-dev/elicit/question"
)

// The user's permission rules (package permissions) are decided by the
// session core, for every permission question. This file gives the
// questions what rules read (the agent's tool name, its raw input, its
// files, and whether a file it changes runs code later), and hands the
// session elicit's own decisions that a rule names: an fs/write_text_file
// no permission covered, and a terminal/create. Those are asked as
// permission questions (a write's Write is set; a command's tool call is
// kind execute with rawInput {command}), which the session answers by the
// rule, or puts to the person when an ask rule names them.

// RuleEnv is where the rules' paths are read from: the session directory
// (as resolved; relative paths are read from it) and the home directory.
func (c *Conn) RuleEnv() permissions.Env {
	home, _ := os.UserHomeDir()
	return permissions.Env{Cwd: c.root, Home: home}
}

// ruleFacts fills what rules read of a permission's tool call: the agent's
// name for the tool (claude-agent-acp's toolCall.name, Claude Code's
// _meta.claudeCode.toolName, qwen's _meta.toolName), its raw input, the
// files its diffs and locations name, and the first of them to run code
// later, unless --allow-write names it.
func (c *Conn) ruleFacts(t *question.Tool, params json.RawMessage, tc acp.ToolCallUpdate) {
	var extra struct {
		ToolCall struct {
			Name string `json:"name"`
		} `json:"toolCall"`
	}
	_ = json.Unmarshal(params, &extra) // decoded once already: it is valid JSON
	t.Name = extra.ToolCall.Name
	if t.Name == "" {
		t.Name = metaToolName(tc.Meta)
	}
	t.Input = tc.RawInput
	for _, cc := range tc.Content {
		if cc.Diff != nil {
			t.Files = append(t.Files, c.inRoot(cc.Diff.Path))
		}
	}
	for _, l := range tc.Locations {
		t.Files = append(t.Files, c.inRoot(l.Path))
	}
	call := permissions.Describe(permissions.Tool{Name: t.Name, Kind: t.Kind, Title: t.Title, Input: t.Input, Files: t.Files}, c.root)
	if call.Tool != "Edit" {
		return
	}
	for _, p := range call.Paths {
		if shown, why := c.pathRisk(p); why != "" {
			t.Risk, t.RiskPath = why, shown
			return
		}
	}
}

// metaToolName is the tool's name in a tool call's _meta, where agents
// put it: claudeCode.toolName (Claude Code), toolName (qwen).
func metaToolName(meta map[string]any) string {
	if cc, ok := meta["claudeCode"].(map[string]any); ok {
		if n, ok := cc["toolName"].(string); ok {
			return n
		}
	}
	n, _ := meta["toolName"].(string)
	return n
}

// inRoot writes a path under the session directory as given (the
// agent's cwd) as the same path under the resolved one, which rules
// read.
func (c *Conn) inRoot(path string) string {
	if c.rootAlias != "" && c.rootAlias != c.root {
		if rel, err := filepath.Rel(c.rootAlias, path); err == nil && !strings.HasPrefix(rel, "..") && filepath.IsAbs(path) {
			return filepath.Join(c.root, rel)
		}
	}
	return path
}

// pathRisk says why a write to path (absolute) would run code later, and
// the path as shown: relative to the session directory inside it (where
// --allow-write may allow it), else relative to the home directory (its
// rc files), else as it is.
func (c *Conn) pathRisk(path string) (shown, why string) {
	if rel, err := c.relPath(path); err == nil {
		return sanitize.DiffLine(filepath.ToSlash(rel)), c.codeRisk(rel)
	}
	if home, err := os.UserHomeDir(); err == nil {
		if rel, err := filepath.Rel(home, path); err == nil && !strings.HasPrefix(rel, "..") {
			return sanitize.DiffLine(path), CodeRisk(rel)
		}
	}
	return sanitize.DiffLine(path), CodeRisk(strings.TrimPrefix(filepath.ToSlash(path), "/"))
}

// ruleNames reports whether a rule says anything of call: then the
// session decides it (asked as a question), not the write or terminal
// policy.
func (c *Conn) ruleNames(call permissions.Call) bool {
	return c.cfg.Rules != nil && c.cfg.Rules.Decide(call, c.RuleEnv()).Verdict != permissions.None
}

// The option ids of a command question.
const (
	CommandAllow  = "allow-command"
	CommandRefuse = "refuse-command"
)

// askCommand asks the session about a terminal/create a rule names, and
// waits for the answer: true when it allows the command.
func (c *Conn) askCommand(ctx context.Context, line, shown string) (bool, string) {
	id, ch, ok := c.register()
	if !ok {
		return false, "too many questions are waiting for the user"
	}
	tc := ToolCall{Title: "run " + shown, Kind: "execute", Status: "pending"}
	t := askedTool(tc)
	t.Input = map[string]any{"command": line}
	q := &question.Question{ID: id, Kind: question.Permission, From: question.From{Tool: tc.Title}, Tool: t, Options: []question.Option{
		{ID: CommandAllow, Name: "Run it", Kind: "allow_once"},
		{ID: CommandRefuse, Name: "Refuse it", Kind: "reject_once"},
	}}
	if !c.emit(question.Asked{Q: q}) {
		c.withdraw(id)
		return false, "the command was not asked"
	}
	out, ok := c.wait(ctx, id, ch)
	if !ok {
		return false, "the command was withdrawn while its question was open"
	}
	if out.Action != question.Accept || out.Option != CommandAllow {
		why := "refused"
		if out.Reason != "" {
			why = out.Reason
		}
		return false, why
	}
	return true, ""
}

// commandCall is a terminal/create as rules read it: its command line
// (assignments for its environment, then the command and its arguments).
func commandCall(p acp.CreateTerminalRequest) permissions.Call {
	env := make([]string, 0, len(p.Env))
	for _, v := range p.Env {
		env = append(env, v.Name+"="+v.Value)
	}
	line := permissions.CommandLine(append([]string{p.Command}, p.Args...), env...)
	if line == "" {
		line = p.Command // a word no shell can hold: what deny rules may still name
	}
	return permissions.Call{Tool: "Bash", Command: line}
}

// ruledCommand asks the session about a terminal/create a rule names, off
// the terminal loop (a person may be asked), then creates it or refuses
// it, answering in either case.
func (c *Conn) ruledCommand(r termRequest, p acp.CreateTerminalRequest, call permissions.Call) {
	go func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-c.closed:
				cancel()
			case <-ctx.Done():
			}
		}()
		shown := commandLine(p, c.root, c.root)
		ok, why := c.askCommand(ctx, call.Command, shown)
		if !ok {
			c.emit(Notice{Text: fmt.Sprintf("refused the agent's command %s: %s", shown, sanitize.Line(why)), Error: true})
			c.termAnswer(r.id, nil, invalidParams("command", "refused: "+why))
			return
		}
		res, rerr := c.createTerminal(p, true)
		c.termAnswer(r.id, res, rerr)
	}()
}
