package permissions

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// input decodes a rawInput as acpconn hands it on.
func input(t *testing.T, s string) any {
	t.Helper()
	if s == "" {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestDescribe reads the tool calls real agents sent in their permission
// requests (traces of claude-agent-acp 0.101.0, qwen-code 0.24.4,
// gemini-cli 0.61.0 and codex-acp 0.16.0 driven by internal/modelmock;
// see the README's table).
func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tool  Tool
		input string
		want  Call
	}{
		{name: "claude Bash", tool: Tool{Name: "Bash", Kind: "execute", Title: "npm test"},
			input: `{"command":"npm test","description":"Print hi"}`, want: Call{Tool: "Bash", Name: "Bash", Command: "npm test"}},
		{name: "claude Write", tool: Tool{Name: "Write", Kind: "edit", Title: "Write hello.txt", Files: []string{"/proj/hello.txt", "/proj/hello.txt"}},
			input: `{"file_path":"/proj/hello.txt","content":"hi\n"}`, want: Call{Tool: "Edit", Name: "Write", Paths: []string{"/proj/hello.txt"}}},
		{name: "claude WebFetch", tool: Tool{Name: "WebFetch", Kind: "fetch", Title: "Fetch https://docs.example.com/guide"},
			input: `{"url":"https://docs.example.com/guide","prompt":"Summarise"}`, want: Call{Tool: "WebFetch", Name: "WebFetch", URLs: []string{"https://docs.example.com/guide"}}},
		{name: "claude MCP", tool: Tool{Name: "mcp__everything__echo", Kind: "other", Title: "echo"},
			input: `{"message":"hi"}`, want: Call{Tool: "mcp__everything__echo", Name: "mcp__everything__echo"}},
		{name: "qwen shell", tool: Tool{Name: "run_shell_command", Kind: "execute", Title: "npm test"},
			input: `{"command":"npm test"}`, want: Call{Tool: "Bash", Name: "run_shell_command", Command: "npm test"}},
		{name: "qwen write_file", tool: Tool{Name: "write_file", Kind: "edit", Title: "Writing to hello.txt", Files: []string{"/proj/hello.txt"}},
			input: `{"content":"hi\n","file_path":"/proj/hello.txt"}`, want: Call{Tool: "Edit", Name: "write_file", Paths: []string{"/proj/hello.txt"}}},
		{name: "gemini shell: the title is the command", tool: Tool{Kind: "execute", Title: "npm test"},
			want: Call{Tool: "Bash", Command: "npm test"}},
		{name: "gemini write_file", tool: Tool{Kind: "edit", Title: "Writing to hello.txt", Files: []string{"/proj/hello.txt"}},
			want: Call{Tool: "Edit", Paths: []string{"/proj/hello.txt"}}},
		{name: "gemini web_fetch", tool: Tool{Kind: "fetch", Title: `Processing URLs and instructions from prompt: "Summarise https://docs.example.com/guide"`},
			want: Call{Tool: "WebFetch", URLs: []string{"https://docs.example.com/guide"}}},
		{name: "codex exec", tool: Tool{Kind: "execute", Title: "npm test"},
			input: `{"call_id":"c","command":["bash","-lc","npm test"],"cwd":"/proj","parsed_cmd":[]}`, want: Call{Tool: "Bash", Command: "npm test"}},
		{name: "codex exec read", tool: Tool{Kind: "read", Title: "Read a.go"},
			input: `{"command":["cat","a b.go"],"cwd":"/proj"}`, want: Call{Tool: "Bash", Command: "cat 'a b.go'"}},
		{name: "codex patch", tool: Tool{Kind: "edit", Title: "Edit src/a.go"},
			input: `{"call_id":"c","changes":{"/proj/src/a.go":{"update":{"unified_diff":""}}}}`, want: Call{Tool: "Edit", Paths: []string{"/proj/src/a.go"}}},
		{name: "relative path", tool: Tool{Name: "Edit", Kind: "edit"}, input: `{"file_path":"src/../src/a.go"}`,
			want: Call{Tool: "Edit", Name: "Edit", Paths: []string{"/proj/src/a.go"}}},
		{name: "unknown other", tool: Tool{Kind: "other", Title: "think"}, want: Call{}},
		{name: "switch mode", tool: Tool{Name: "ExitPlanMode", Kind: "switch_mode"}, want: Call{Tool: "ExitPlanMode", Name: "ExitPlanMode"}},
	} {
		tool := tc.tool
		tool.Input = input(t, tc.input)
		if got := Describe(tool, "/proj"); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Describe = %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if got := Describe(Tool{}, "/proj"); !reflect.DeepEqual(got, Call{}) {
		t.Errorf("Describe(Tool{}) = %+v", got)
	}
}

func TestNarrowest(t *testing.T) {
	for _, tc := range []struct {
		call Call
		want string
	}{
		{Call{Tool: "Bash", Command: "npm test"}, "Bash(npm test:*)"},
		{Call{Tool: "Bash", Command: " git status "}, "Bash(git status:*)"},
		{Call{Tool: "Bash", Command: "npm test && rm -rf x"}, ""},
		{Call{Tool: "Bash", Command: "ls *.go"}, ""},
		{Call{Tool: "Bash", Command: "echo hi > out"}, ""},
		{Call{Tool: "Bash", Command: "timeout 5 npm test"}, "Bash(timeout 5 npm test:*)"},
		{Call{Tool: "Edit", Paths: []string{"/proj/src/a.go"}}, "Edit(src/a.go)"},
		{Call{Tool: "Edit", Paths: []string{"/proj/a.go"}}, "Edit(./a.go)"},
		{Call{Tool: "Edit", Paths: []string{"/proj/a[1].go"}}, `Edit(./a\[1\].go)`},
		{Call{Tool: "Edit", Paths: []string{"/etc/hosts"}}, "Edit(//etc/hosts)"},
		{Call{Tool: "Edit", Paths: []string{"/proj/a", "/proj/b"}}, ""},
		{Call{Tool: "Read", Paths: []string{"/proj/x/y"}}, "Read(x/y)"},
		{Call{Tool: "WebFetch", URLs: []string{"https://Docs.Example.com/a", "https://docs.example.com/b"}}, "WebFetch(domain:docs.example.com)"},
		{Call{Tool: "WebFetch", URLs: []string{"https://a.com/", "https://b.com/"}}, ""},
		{Call{Tool: "mcp__everything__echo"}, "mcp__everything__echo"},
		{Call{Tool: "WebSearch"}, "WebSearch"},
		{Call{}, ""},
	} {
		got, ok := Narrowest(tc.call, env)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Narrowest(%+v) = %q, %v; want %q", tc.call, got, ok, tc.want)
		}
	}
}

func TestLints(t *testing.T) {
	s := set(t, []string{"Bash(npm test:*)", "Task(explore)", "Edit(.git/**)", "Edit(src/**)", "Write(docs/**)"}, []string{"Edit(docs/**)"}, []string{"Bash", "Write"})
	risk := func(rel string) string {
		if strings.HasPrefix(rel, ".git/") {
			return "git runs hooks"
		}
		return ""
	}
	got := map[string]string{}
	for _, l := range Lints(s, risk) {
		got[l.Rule.Text+" "+l.Rule.Verdict.String()] = l.Why
	}
	for _, want := range []string{"Bash(npm test:*) allow", "Task(explore) allow", "Edit(.git/**) allow", "Edit(src/**) allow", "Write(docs/**) allow", "Edit(docs/**) ask"} {
		if got[want] == "" {
			t.Errorf("no lint for %s (got %v)", want, got)
		}
	}
	if len(got) != 6 {
		t.Errorf("lints %v, want 6", got)
	}
	if l := Lints(set(t, []string{"Bash(npm test:*)", "Edit(src/**)"}, nil, []string{"Bash(rm:*)"}), risk); len(l) != 0 {
		t.Errorf("lints for good rules: %v", l)
	}
}

func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		argv, env []string
		want      string
	}{
		{[]string{"npm", "test"}, nil, "npm test"},
		{[]string{"sh", "-c", "npm test && git status"}, nil, "npm test && git status"},
		{[]string{"/bin/bash", "-lc", "ls"}, nil, "ls"},
		{[]string{"echo", "a b", "$HOME"}, nil, `echo 'a b' '$HOME'`},
		{[]string{"npm", "test"}, []string{"CI=1", "X=a b"}, "CI=1 X='a b' npm test"},
		{[]string{"npm"}, []string{"bad name=1"}, ""},
		{[]string{"a\x00b"}, nil, ""},
	} {
		if got := CommandLine(tc.argv, tc.env...); got != tc.want {
			t.Errorf("CommandLine(%q, %q) = %q, want %q", tc.argv, tc.env, got, tc.want)
		}
	}
}
