package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/internal/config"
)

// TestSessionCommandLine reads command lines as the root does and checks
// the session each asks for: flags anywhere before --, the agent's
// command after it untouched, --resume with and without an ID, -c.
func TestSessionCommandLine(t *testing.T) {
	type want struct {
		name, prompt, answers string
		argv                  []string
		resume                bool
		id, mode, model       string
		acceptDefaults        bool
	}
	for _, tc := range []struct {
		args []string
		want want
	}{
		{nil, want{}},
		{[]string{"probe", "-p", "form please", "--answers", "a.json"}, want{name: "probe", prompt: "form please", answers: "a.json"}},
		{[]string{"probe", "--accept-defaults", "-p", "x"}, want{name: "probe", prompt: "x", acceptDefaults: true}},
		{[]string{"--answers=a.json", "probe", "--prompt=x"}, want{name: "probe", prompt: "x", answers: "a.json"}},
		{[]string{"--resume", "4f2c", "-p", "hi", "--", "claude-agent-acp"}, want{prompt: "hi", argv: []string{"claude-agent-acp"}, resume: true, id: "4f2c"}},
		{[]string{"--resume=4f2c", "--", "agent"}, want{argv: []string{"agent"}, resume: true, id: "4f2c"}},
		{[]string{"--resume", "4f2c"}, want{resume: true, id: "4f2c"}},
		{[]string{"probe", "--resume", "4f2c"}, want{name: "probe", resume: true, id: "4f2c"}},
		{[]string{"--resume"}, want{resume: true}},
		{[]string{"--resume", "--", "npx", "--", "a"}, want{argv: []string{"npx", "--", "a"}, resume: true}},
		{[]string{"--resume", "-p", "hi"}, want{prompt: "hi", resume: true}},
		{[]string{"probe", "--resume", "--mode", "plan"}, want{name: "probe", resume: true, mode: "plan"}},
		{[]string{"-c", "probe"}, want{name: "probe", resume: true}},
		{[]string{"probe", "--continue", "-p", "go on"}, want{name: "probe", prompt: "go on", resume: true}},
		{[]string{"-cp", "hi"}, want{prompt: "hi", resume: true}},
		// A flag's value is not a flag, even one that looks like it.
		{[]string{"-p", "--resume"}, want{prompt: "--resume"}},
		{[]string{"-cp", "--resume"}, want{prompt: "--resume", resume: true}},
		{[]string{"--model", "--resume", "--", "a"}, want{model: "--resume", argv: []string{"a"}}},
		// Everything after -- is the agent's.
		{[]string{"--", "agent", "--model", "x", "-p"}, want{argv: []string{"agent", "--model", "x", "-p"}}},
		{[]string{"--mode", "plan", "--model", "opus", "--", "a", "-c", "--resume"}, want{mode: "plan", model: "opus", argv: []string{"a", "-c", "--resume"}}},
		{[]string{"-p", "hi", "--", "agent", "--help"}, want{prompt: "hi", argv: []string{"agent", "--help"}}},
		// A word after -- named like a subcommand is the agent's command.
		{[]string{"--", "form", "x"}, want{argv: []string{"form", "x"}}},
	} {
		r := runTree(t, "", tc.args...)
		if r.code != 0 || r.session == nil {
			t.Errorf("%q: no session: %v", tc.args, r)
			continue
		}
		s := r.session
		got := want{name: s.name, prompt: s.opts.prompt.prompt, answers: s.opts.answers.answers, argv: s.argv,
			resume: s.opts.start.resumeSet, id: s.opts.start.resume, mode: s.opts.start.mode, model: s.opts.start.model,
			acceptDefaults: s.opts.answers.acceptDefaults}
		if got.name != tc.want.name || got.prompt != tc.want.prompt || got.answers != tc.want.answers || !slices.Equal(got.argv, tc.want.argv) ||
			got.resume != tc.want.resume || got.id != tc.want.id || got.mode != tc.want.mode || got.model != tc.want.model ||
			got.acceptDefaults != tc.want.acceptDefaults {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.args, got, tc.want)
		}
	}
}

// TestSessionFlagValues checks the values of the other session flags.
func TestSessionFlagValues(t *testing.T) {
	r := runTree(t, "", "probe", "--cwd", "/tmp", "--log", "t.log", "--timeout", "5s", "--start-timeout", "3s", "--no-form", "--no-url",
		"--audit", "a.jsonl", "--no-history", "--config", "c.toml", "--top-domains", "d1", "--top-domains", "d2", "--approve", "--auto-retry")
	if r.session == nil {
		t.Fatal(r)
	}
	o := r.session.opts
	if o.agent.cwd != "/tmp" || o.agent.logFile != "t.log" || o.prompt.timeout != 5*time.Second || o.agent.startTimeout != 3*time.Second ||
		!o.agent.noForm || !o.agent.noURL || o.files.audit != "a.jsonl" || !o.files.noHistory || o.files.configFile != "c.toml" ||
		!slices.Equal(o.files.topDomains, []string{"d1", "d2"}) || !o.answers.approve || !o.screen.autoRetry {
		t.Errorf("options %+v", o)
	}
	if r := runTree(t, ""); r.session.opts.prompt.timeout != 10*time.Minute {
		t.Errorf("default --timeout %v", r.session.opts.prompt.timeout)
	}
}

// TestAccessibleFromEnvironment: ACCESSIBLE turns the line session on
// unless --accessible says otherwise.
func TestAccessibleFromEnvironment(t *testing.T) {
	for _, tc := range []struct {
		env  string
		args []string
		want bool
	}{
		{"", nil, false},
		{"1", nil, true},
		{"", []string{"--accessible"}, true},
		{"1", []string{"--accessible=false"}, false},
	} {
		t.Setenv("ACCESSIBLE", tc.env)
		if r := runTree(t, "", tc.args...); r.session == nil || r.session.accessible != tc.want {
			t.Errorf("ACCESSIBLE=%q %q: %v", tc.env, tc.args, r)
		}
	}
}

// TestUsageErrors: a command line elicit cannot read exits 2 and says
// what is wrong, with a suggestion where one is close (usage_test.go
// has a case for every command).
func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says []string
	}{
		{[]string{"--acept-defaults"}, []string{"unknown flag: --acept-defaults", "Did you mean this?", "--accept-defaults"}},
		{[]string{"probe", "--modle", "x"}, []string{"unknown flag: --modle", "--model", "--mode"}},
		{[]string{"claude", "--dangerously-skip"}, []string{"unknown flag", "An agent's own flags go after --"}},
		{[]string{"-x"}, []string{"unknown shorthand flag: 'x' in -x"}},
		{[]string{"--timeout", "soon"}, []string{"invalid argument"}},
		{[]string{"-p"}, []string{"flag needs an argument"}},
		{[]string{"npx", "some-agent"}, []string{"2 words before --", "elicit [flags] -- npx some-agent"}},
		{[]string{"probe", "--", "agent"}, []string{`both an agent name ("probe") and a command after --`}},
		{[]string{"--"}, []string{"nothing after --"}},
		{[]string{"form", "--json"}, []string{"elicit form: unknown flag: --json", "Try 'elicit form --help'"}},
		{[]string{"url", "--nope", "https://example.com/"}, []string{"elicit url: unknown flag: --nope"}},
		{[]string{"agents", "--cwd", "x"}, []string{"elicit agents: unknown flag: --cwd"}},
		{[]string{"help", "bogus"}, []string{`unknown help topic "bogus"`}},
		{[]string{"help", "histroy"}, []string{"Did you mean this?", "history"}},
	} {
		r := runTree(t, "", tc.args...)
		if r.code != exitUsage || r.session != nil {
			t.Errorf("%q: want exit 2 and no session: %v", tc.args, r)
			continue
		}
		for _, s := range tc.says {
			if !strings.Contains(r.stderr, s) {
				t.Errorf("%q: stderr lacks %q:\n%s", tc.args, s, r.stderr)
			}
		}
		if !strings.Contains(r.stderr, "Try 'elicit ") || !strings.Contains(r.stderr, " --help' for usage.") {
			t.Errorf("%q: no pointer to --help:\n%s", tc.args, r.stderr)
		}
	}
}

// TestUnknownAgentSuggestsCommand: a name that is no agent but close to a
// subcommand gets cobra's suggestion (sessions resolves the agent before
// starting anything).
func TestUnknownAgentSuggestsCommand(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	r := runTree(t, "", "sessions", "histroy")
	if r.code != exitUsage || !strings.Contains(r.stderr, `no agent named "histroy"`) || !strings.Contains(r.stderr, "Did you mean this?\n\thistory") {
		t.Errorf("%v", r)
	}
}

// TestNameCollision: an agent may not take a subcommand's name; the
// config file that tries says so, and the subcommand still runs.
func TestNameCollision(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[agents.sessions]\ncommand = [\"x\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"agents", "--config", cfg}, {"config", "check", "--config", cfg}} {
		r := runTree(t, "", args...)
		if r.code != exitFailed || !strings.Contains(r.stderr, `agent name "sessions" is an elicit sub-command; pick another`) || !strings.Contains(r.stderr, "config.toml:1") {
			t.Errorf("%q: %v", args, r)
		}
	}
	if r := runTree(t, "", "sessions", "--config", cfg, "probe"); r.code != exitUsage || !strings.Contains(r.stderr, "is an elicit sub-command") {
		t.Errorf("sessions with a colliding config: %v", r)
	}
}

// TestReservedNames: every name the tree answers to is one config.Reserved
// keeps agents from, and no built-in agent takes one.
func TestReservedNames(t *testing.T) {
	root := newRootCommand(newApp(nil, nil, nil))
	root.InitDefaultHelpCmd()
	names := []string{"man"} // fang adds it under Execute
	for _, c := range root.Commands() {
		names = append(names, c.Name())
		names = append(names, c.Aliases...)
	}
	for _, n := range names {
		if !slices.Contains(config.Reserved, n) {
			t.Errorf("subcommand %q is not in config.Reserved: an agent could take its name", n)
		}
		if _, ok := config.Builtin[n]; ok {
			t.Errorf("built-in agent %q has a subcommand's name", n)
		}
	}
}

// TestHelpAndVersionExitZero: help and version are no errors.
func TestHelpAndVersionExitZero(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"help", "form"}, {"form", "-h"}, {"probe", "--help"}, {"config"},
		{"--version"}, {"-v"}, {"version"}} {
		r := runTree(t, "", args...)
		if r.code != 0 || r.session != nil || r.stdout == "" {
			t.Errorf("%q: %v", args, r)
		}
	}
}

// TestConfigCommand covers `elicit config path|check` and `elicit agents`.
func TestConfigCommand(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no built-in agent is installed
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(good, []byte("[agents.x]\ncommand = [\"x\"]\n"), 0o600)
	os.WriteFile(bad, []byte("\n[agents.x]\ncommand = \"x\"\n"), 0o600)
	for _, tc := range []struct {
		args       []string
		code       int
		out, errst string
	}{
		{[]string{"config", "path", "--config", good}, 0, good, ""},
		{[]string{"config", "--config", good, "path"}, 0, good, ""},
		{[]string{"config", "check", "--config", good}, 0, "ok (1 agents, 0 hooks, 0 MCP servers)", ""},
		{[]string{"config", "check", "--config", bad}, 1, "", "bad.toml:3:"},
		{[]string{"config", "check", "--config", filepath.Join(dir, "none")}, 0, "no file", ""},
		{[]string{"agents", "--config", good}, 0, "config    no", ""},
		{[]string{"agents", "--config", bad}, 1, "", "bad.toml:3:"},
	} {
		r := runTree(t, "", tc.args...)
		if r.code != tc.code || !strings.Contains(r.stdout, tc.out) || !strings.Contains(r.stderr, tc.errst) {
			t.Errorf("%q: %v", tc.args, r)
		}
	}
}

// `elicit config check` reports the [mcp_servers]: how each is reached,
// which variables and headers it gets (by name, never a value), and what
// would keep it from the agents (issue 35, item 12).
func TestConfigCheckMCPServers(t *testing.T) {
	bin := t.TempDir()
	tool := filepath.Join(bin, "mcp-tool")
	os.WriteFile(tool, []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", bin)
	t.Setenv("DOCS_AUTH", "Bearer sekrit")
	file := filepath.Join(t.TempDir(), "c.toml")
	os.WriteFile(file, []byte(`[mcp_servers.everything]
command = "mcp-tool"
env_from = { TOKEN = "NO_SUCH_TOKEN_VAR" }

[mcp_servers.docs]
url = "https://docs.example/mcp"
headers_from = { Authorization = "DOCS_AUTH" }
`), 0o600)
	r := runTree(t, "", "config", "check", "--config", file)
	want := file + ": ok (0 agents, 0 hooks, 2 MCP servers)\n" +
		"  mcp server docs (http): https://docs.example/mcp with Authorization: — given to agents that take HTTP\n" +
		"  mcp server everything (stdio): " + tool + " with $TOKEN — left out: variable TOKEN: $NO_SUCH_TOKEN_VAR is not set\n"
	if r.code != 0 || r.stdout != want || strings.Contains(r.stdout, "sekrit") {
		t.Errorf("got %v\nwant %q", r, want)
	}
}

// TestFormCommandLine runs `elicit form` through the tree: flags after the
// file, the file from stdin.
func TestFormCommandLine(t *testing.T) {
	dir := t.TempDir()
	schema := filepath.Join(dir, "schema.json")
	answers := filepath.Join(dir, "a.json")
	os.WriteFile(schema, []byte(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`), 0o600)
	os.WriteFile(answers, []byte(`{"name":"Ada"}`), 0o600)
	for _, args := range [][]string{{"form", schema, "--answers", answers}, {"form", "--answers", answers, schema}, {"--answers", answers, "form", schema}} {
		r := runTree(t, "", args...)
		if r.code != 0 || strings.TrimSpace(r.stdout) != `{"action":"accept","content":{"name":"Ada"}}` {
			t.Errorf("%q: %v", args, r)
		}
	}
	withDefault := `{"type":"object","properties":{"a":{"type":"boolean","default":true}}}`
	r := runTree(t, withDefault, "form", "-", "--accept-defaults")
	if r.code != 0 || strings.TrimSpace(r.stdout) != `{"action":"accept","content":{"a":true}}` {
		t.Errorf("form - --accept-defaults: %v", r)
	}
	// Without a terminal and without --accept-defaults, nobody chose.
	r = runTree(t, withDefault, "form", "-")
	if r.code != formNobody || strings.TrimSpace(r.stdout) != `{"action":"cancel"}` {
		t.Errorf("form -: %v", r)
	}
}

// TestURLCommandLine runs `elicit url` through the tree.
func TestURLCommandLine(t *testing.T) {
	r := runTree(t, "https://example.com/\n", "url", "-", "--json")
	if r.code != urlClean || !strings.Contains(r.stdout, `"registrable_domain":"example.com"`) {
		t.Errorf("%v", r)
	}
	if r := runTree(t, "", "url", "https://xn--80ak6aa92e.com/"); r.code != urlWarnings {
		t.Errorf("lookalike: %v", r)
	}
}

// TestPluginContract: every command has examples, an Args check, and
// sorted-as-written flags, as the package comment asks of a new one.
func TestPluginContract(t *testing.T) {
	root := newRootCommand(newApp(nil, nil, nil))
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.Hidden {
			if c.Example == "" {
				t.Errorf("%s has no Example", c.CommandPath())
			}
			if c.Args == nil {
				t.Errorf("%s has no Args", c.CommandPath())
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}
