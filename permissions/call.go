package permissions

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Call is a tool call as rules see it: which tool (by the name rules use)
// and what it acts on.
type Call struct {
	// Tool is the tool as rules name it: Bash, Edit (every change to a
	// file), Read, WebFetch, WebSearch, an MCP tool's mcp__SERVER__TOOL,
	// or else the agent's own name ("" when it gave none).
	Tool string
	// Name is the agent's own name for the tool ("" when it gave none).
	Name string
	// Command is a Bash call's command line.
	Command string
	// Paths are the files a file call acts on, absolute and clean.
	Paths []string
	// URLs are the pages a WebFetch call fetches.
	URLs []string
}

// The agents' own names for their tools (Claude Code, gemini and qwen,
// codex, opencode), by the tool rules name.
var (
	shellNames = names("Bash", "bash", "shell", "run_shell_command", "exec_command", "execute", "terminal")
	editNames  = names("Edit", "MultiEdit", "Write", "NotebookEdit", "write_file", "replace", "edit", "edit_file",
		"apply_patch", "patch", "create_file", "str_replace_based_edit_tool", "write", "multiedit")
	readNames = names("Read", "read_file", "read_many_files", "Glob", "Grep", "glob", "grep", "search_file_content",
		"list_directory", "LS", "ls", "read", "list")
	fetchNames  = names("WebFetch", "web_fetch", "webfetch", "fetch")
	searchNames = names("WebSearch", "google_web_search", "web_search", "websearch")
)

func names(s ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range s {
		m[n] = true
	}
	return m
}

// Tool is what a rule reads of a tool call the agent asks permission
// for: the agent's own name for the tool where it gives one (Claude
// Code's "Bash" or "mcp__github__create_issue", qwen's
// "run_shell_command"), its ACP kind and title, its raw input as decoded
// from JSON (nil when none), and every file it names, exact. The session
// core fills it from a question.Tool.
type Tool struct {
	Name, Kind, Title string
	Input             any
	Files             []string
}

// Describe is the call a permission's tool call makes, read from what the
// agent sent (see the README's table): its name where it gives one, else
// its kind; the command from rawInput.command (a string, or codex's argv,
// whose `bash -lc SCRIPT` is SCRIPT), else an execute call's title
// (gemini sends nothing else); the files from rawInput's file_path, path,
// notebook_path, absolute_path and codex's changes, and from the diffs'
// and locations' paths; the URLs from rawInput.url, else those in the
// title or rawInput.prompt (gemini). Relative paths are taken from cwd.
func Describe(t Tool, cwd string) Call {
	in, _ := t.Input.(map[string]any)
	c := Call{Name: t.Name}
	cmd := command(in)
	switch n := t.Name; {
	case strings.HasPrefix(n, mcpPrefix):
		c.Tool = n
	case shellNames[n]:
		c.Tool = "Bash"
	case editNames[n]:
		c.Tool = "Edit"
	case readNames[n]:
		c.Tool = "Read"
	case fetchNames[n]:
		c.Tool = "WebFetch"
	case searchNames[n]:
		c.Tool = "WebSearch"
	case cmd != "":
		c.Tool = "Bash" // codex asks for a command whatever its kind (read, search)
	default:
		c.Tool = byKind(t.Kind, n)
	}
	switch c.Tool {
	case "Bash":
		c.Command = cmd
		if c.Command == "" && t.Kind == "execute" {
			c.Command = t.Title // gemini: the title is the command
		}
	case "Edit", "Read":
		c.Paths = filePaths(t, in, cwd)
	case "WebFetch":
		c.URLs = urls(t, in)
	}
	return c
}

// byKind is the tool a call's ACP kind stands for, when its name says
// nothing rules know.
func byKind(kind, name string) string {
	switch kind {
	case "execute":
		return "Bash"
	case "edit", "delete", "move":
		return "Edit"
	case "read", "search":
		return "Read"
	case "fetch":
		return "WebFetch"
	}
	return name
}

// command is rawInput's command: a string as it is; an argv (codex) as a
// shell would read it, or the script of `sh -c SCRIPT`.
func command(in map[string]any) string {
	for _, k := range []string{"command", "cmd"} {
		switch v := in[k].(type) {
		case string:
			return v
		case []any:
			argv := make([]string, 0, len(v))
			for _, a := range v {
				s, ok := a.(string)
				if !ok {
					return ""
				}
				argv = append(argv, s)
			}
			return argvLine(argv)
		}
	}
	return ""
}

// CommandLine is a command elicit runs for the agent (terminal/create),
// as rules read it: its environment variables (NAME=VALUE) as the
// command's assignments, then argv as argvLine reads it; "" when a word
// cannot be quoted.
func CommandLine(argv []string, env ...string) string {
	line := argvLine(argv)
	if line == "" || len(env) == 0 {
		return line
	}
	words := make([]string, 0, len(env)+1)
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		q, err := syntax.Quote(value, syntax.LangBash)
		if err != nil || !syntax.ValidName(name) {
			return ""
		}
		words = append(words, name+"="+q)
	}
	return strings.Join(append(words, line), " ")
}

// argvLine is argv as one command line: the script of `bash -lc SCRIPT`,
// else each word quoted as the shell needs.
func argvLine(argv []string) string {
	if len(argv) == 3 && shells[path.Base(argv[0])] && strings.HasPrefix(argv[1], "-") && strings.HasSuffix(argv[1], "c") {
		return argv[2]
	}
	words := make([]string, 0, len(argv))
	for _, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			return "" // a word no shell can hold (a NUL): nothing a rule can allow
		}
		words = append(words, q)
	}
	return strings.Join(words, " ")
}

var shells = names("sh", "bash", "zsh", "dash", "ksh")

// pathKeys are the rawInput fields that name a file.
var pathKeys = []string{"file_path", "path", "notebook_path", "absolute_path", "filePath", "file"}

// filePaths are the files a call names, absolute and clean, each once.
func filePaths(t Tool, in map[string]any, cwd string) []string {
	var raw []string
	for _, k := range pathKeys {
		if s, ok := in[k].(string); ok && s != "" {
			raw = append(raw, s)
		}
	}
	if ch, ok := in["changes"].(map[string]any); ok { // codex's patch: path -> change
		for p := range ch {
			raw = append(raw, p)
		}
	}
	raw = append(raw, t.Files...)
	var out []string
	seen := map[string]bool{}
	for _, p := range raw {
		if strings.HasPrefix(p, "~/") {
			continue // not a path an agent's tool reads as home: no rule can place it
		}
		if !filepath.IsAbs(p) {
			if cwd == "" {
				continue
			}
			p = filepath.Join(cwd, p)
		}
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// urlText finds the URLs in a text (gemini's web_fetch sends its prompt,
// URLs and all, as the title).
var urlText = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>()\[\]{}` + "`" + `]+`)

// urls are the pages a fetch names: rawInput's url (or urls), else those
// in its prompt or title.
func urls(t Tool, in map[string]any) []string {
	if s, ok := in["url"].(string); ok && s != "" {
		return []string{s}
	}
	var out []string
	if list, ok := in["urls"].([]any); ok {
		for _, u := range list {
			if s, ok := u.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	text := t.Title
	if s, ok := in["prompt"].(string); ok {
		text += " " + s
	}
	for _, u := range urlText.FindAllString(text, -1) {
		out = append(out, strings.TrimRight(u, ".,;:!?"))
	}
	return out
}
