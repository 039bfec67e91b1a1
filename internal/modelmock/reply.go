package modelmock

import (
	"path"
	"regexp"
	"strings"
	"unicode"
)

// HelloText is the plain reply to a prompt without a keyword.
const HelloText = "Hello from the mock model."

// helloDeltas is HelloText in the pieces it is streamed in.
var helloDeltas = []string{"Hello", " from", " the", " mock", " model."}

// MaxKeywordText is the longest user message whose keywords choose a tool
// call. Longer ones are the agents' own background prompts (session
// titles, memory extraction, prompt suggestions), which get plain text.
const MaxKeywordText = 300

// FileContent is what the write tool call writes.
const FileContent = "hello from the mock model\n"

// AskInput is the AskUserQuestion input the "ask" keyword sends to Claude.
const AskInput = `{"questions":[{"question":"Which colour?","header":"Colour","options":[{"label":"Red","description":"warm"},{"label":"Blue","description":"cool"}],"multiSelect":false}]}`

// tool is one tool a request offered.
type tool struct {
	name   string
	schema map[string]any // JSON Schema of the input; nil for freeform tools
	custom bool           // a Responses API freeform ("custom") tool
}

// turnState is what the reply depends on: the last message of a request.
type turnState struct {
	text       string // the last user message, cleaned
	toolResult bool   // the last message is a tool result
	resultText string // the tool result's text
	resultTool string // the tool whose result it is, when known
	cwd        string // the working directory named in the prompt
}

// commandQuote finds the shell command a prompt names in backquotes ("run
// `sleep 1; echo hi`"): the bash keyword runs it instead of "echo hi".
var commandQuote = regexp.MustCompile("`([^`]+)`")

// shellCommand is the command a prompt names in backquotes, and the prompt
// without it (its words choose the tool).
func shellCommand(text string) (cmd, rest string) {
	m := commandQuote.FindStringSubmatchIndex(text)
	if m == nil {
		return "", text
	}
	return text[m[2]:m[3]], text[:m[0]] + " " + text[m[1]:]
}

// reply is the answer the mock gives, independent of the API.
type reply struct {
	kind  string // "text", "done" or "tool"
	text  []string
	tool  tool
	input string // JSON arguments, or freeform input for custom tools
}

// label is the reply as recorded in [Request.Reply].
func (r reply) label() string {
	if r.kind == "tool" {
		return "tool:" + r.tool.name
	}
	return r.kind
}

// decide picks the reply for a request.
func decide(st turnState, tools []tool) reply {
	if st.toolResult {
		return reply{kind: "done", text: []string{"done: " + summary(st)}}
	}
	if len(st.text) > MaxKeywordText {
		return reply{kind: "text", text: helloDeltas}
	}
	cmd, text := shellCommand(st.text)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r)
	})
	for _, kw := range []string{"ask", "write", "bash", "plan", "elicitation"} {
		if !hasWordPrefix(words, kw) && !(kw == "bash" && cmd != "") {
			continue
		}
		t, ok := pickTool(kw, tools)
		if !ok && kw == "write" {
			t, ok = pickTool("bash", tools) // write with the shell
		}
		if ok {
			in := input{kw: kw, cwd: st.cwd, command: cmd, background: hasWordPrefix(words, "background")}
			return reply{kind: "tool", tool: t, input: toolInput(in, t),
				text: []string{"Calling " + t.name + "."}}
		}
	}
	return reply{kind: "text", text: helloDeltas}
}

// summary is the short description of a tool result in a "done:" reply.
func summary(st turnState) string {
	s := strings.TrimSpace(st.resultText)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = clip(s, 60)
	switch {
	case st.resultTool != "" && s != "":
		return st.resultTool + ": " + s
	case st.resultTool != "":
		return st.resultTool
	case s != "":
		return s
	}
	return "tool finished"
}

// hasWordPrefix reports whether a word begins with kw.
func hasWordPrefix(words []string, kw string) bool {
	for _, w := range words {
		if strings.HasPrefix(w, kw) {
			return true
		}
	}
	return false
}

// toolRule says how to find a keyword's tool: exact names first, then
// names containing one of the substrings (in order), skipping names that
// contain an excluded word.
type toolRule struct {
	exact, contains, exclude []string
}

// toolRules maps each keyword to its rule.
var toolRules = map[string]toolRule{
	"ask":   {exact: []string{"AskUserQuestion"}, contains: []string{"ask_user", "askuser", "question", "user_input", "ask"}, exclude: []string{"task"}},
	"write": {exact: []string{"Write", "write_file"}, contains: []string{"write", "create_file", "edit", "apply_patch", "patch"}, exclude: []string{"todo", "notebook", "memory", "stdin"}},
	"bash":  {exact: []string{"Bash", "bash", "shell", "run_shell_command"}, contains: []string{"shell", "bash", "exec_command", "command", "exec"}, exclude: []string{"kill", "output", "todo", "write_stdin"}},
	"plan":  {exact: []string{"TodoWrite", "todowrite", "todo_write", "update_plan"}, contains: []string{"todo", "plan"}, exclude: []string{"mode", "read"}},
	// An MCP server's form tool, as the agent names it (server-everything's
	// trigger-elicitation-request is Claude's mcp__everything__trigger-elicitation-request).
	"elicitation": {contains: []string{"trigger-elicitation-request", "elicitation_request", "elicitation-request"}, exclude: []string{"url", "async"}},
}

// pickTool finds the tool for a keyword among the offered ones.
func pickTool(kw string, tools []tool) (tool, bool) {
	rule := toolRules[kw]
	for _, name := range rule.exact {
		for _, t := range tools {
			if t.name == name {
				return t, true
			}
		}
	}
	for _, sub := range rule.contains {
		for _, t := range tools {
			n := strings.ToLower(t.name)
			if strings.Contains(n, sub) && !containsAny(n, rule.exclude) {
				return t, true
			}
		}
	}
	return tool{}, false
}

// containsAny reports whether s contains one of the words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// helloPath is the file the write tool call writes.
func helloPath(cwd string) string {
	if cwd == "" {
		return "hello.txt"
	}
	return path.Join(cwd, "hello.txt")
}

// patchText is an apply_patch body that adds hello.txt.
func patchText(cwd string) string {
	return "*** Begin Patch\n*** Add File: " + helloPath(cwd) + "\n+" + strings.TrimSuffix(FileContent, "\n") + "\n*** End Patch\n"
}

// input is what a tool call's arguments are made of.
type input struct {
	kw, cwd string
	// command is the shell command the prompt named ("" for the default);
	// background asks Claude's Bash to run it in the background.
	command    string
	background bool
}

// toolInput builds the arguments of a tool call: the exact input for the
// Claude tools the mock knows, otherwise values filled in from the tool's
// schema.
func toolInput(in input, t tool) string {
	kw, cwd := in.kw, in.cwd
	switch t.name {
	case "AskUserQuestion":
		return AskInput
	case "Write":
		return mustJSON(map[string]any{"file_path": helloPath(cwd), "content": FileContent})
	case "Bash":
		args := map[string]any{"command": orHi(in.command), "description": "Print hi"}
		if in.background {
			args["run_in_background"] = true
		}
		return mustJSON(args)
	case "TodoWrite":
		return mustJSON(map[string]any{"todos": []any{
			map[string]any{"content": "Say hello", "status": "in_progress", "activeForm": "Saying hello"},
			map[string]any{"content": "Wrap up", "status": "pending", "activeForm": "Wrapping up"},
		}})
	}
	if t.custom || t.schema == nil {
		if strings.Contains(strings.ToLower(t.name), "patch") {
			return patchText(cwd)
		}
		return orHi(in.command)
	}
	f := filler{kw: kw, cwd: cwd, tool: strings.ToLower(t.name), shell: in.command}
	return mustJSON(f.value("", t.schema, 0))
}

// cwdPatterns find the working directory agents name in their prompts.
var cwdPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)working directory:\s*(/[^\s<>"'` + "`" + `]+)`),
	regexp.MustCompile(`<cwd>\s*(/[^<\s]+)\s*</cwd>`),
	regexp.MustCompile(`Workspace Directories:\**\s*-\s*(/[^\s]+)`),
	regexp.MustCompile(`(?i)working (?:in|on) the (?:directory|folder)[:\s]+['"` + "`" + `]?(/[^\s'"` + "`" + `]+)`),
	regexp.MustCompile(`(?i)current working directory(?: is)?[:\s]+['"` + "`" + `]?(/[^\s'"` + "`" + `]+)`),
}

// findCwd returns the first working directory named in the texts.
func findCwd(texts ...string) string {
	for _, re := range cwdPatterns {
		for _, t := range texts {
			if m := re.FindStringSubmatch(t); m != nil {
				return strings.TrimRight(m[1], ".,;:)")
			}
		}
	}
	return ""
}

// wrapperTags are the blocks agents add around the user's words.
var wrapperTags = regexp.MustCompile(`(?s)<(system-reminder|environment_context|user_instructions|environment_details|context|ide_selection|ide_opened_file|command-name|command-message|command-args|local-command-stdout)>.*?</(?:system-reminder|environment_context|user_instructions|environment_details|context|ide_selection|ide_opened_file|command-name|command-message|command-args|local-command-stdout)>`)

// cleanText removes the wrapper blocks from a user message.
func cleanText(s string) string {
	return strings.TrimSpace(wrapperTags.ReplaceAllString(s, ""))
}

// lastNonEmpty returns the last string of parts that is not empty once
// cleaned.
func lastNonEmpty(parts []string) string {
	for i := len(parts) - 1; i >= 0; i-- {
		if c := cleanText(parts[i]); c != "" {
			return c
		}
	}
	return ""
}

// orHi is the command to run: the prompt's, else "echo hi".
func orHi(cmd string) string {
	if cmd == "" {
		return "echo hi"
	}
	return cmd
}
