package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/hostile"
)

// Issue 33, through the real binary with -p: an agent asks permission for
// npm test, git status, rm -rf build, an edit of src/a.go, an edit of
// .git/config, two fetches and an MCP tool, and gets exactly what the
// rules say. Without rules, what happened before: -p refuses, --approve
// allows, except the edit of .git/config (a file that runs code later),
// which --approve allowed before this issue.

// ruleRun runs elicit -p against the rules scenario with a config home of
// its own (holding config, when not ""), a --policy file (policy, when not
// ""), an audit file and more flags; it returns each call's outcome, the
// stderr, the audit file's lines and the exit status.
type ruleRun struct {
	outcomes map[string]string
	stdout   string
	stderr   string
	audit    string
	code     int
}

func runRules(t *testing.T, scenario, config, policy string, flags ...string) ruleRun {
	t.Helper()
	home, dir := t.TempDir(), t.TempDir()
	if config != "" {
		must(t, os.MkdirAll(filepath.Join(home, "elicit"), 0o700))
		must(t, os.WriteFile(filepath.Join(home, "elicit", "config.toml"), []byte(config), 0o600))
	}
	auditFile := filepath.Join(t.TempDir(), "audit.jsonl")
	args := []string{"--cwd", dir, "-p", "go", "--no-history", "--audit", auditFile}
	if policy != "" {
		p := filepath.Join(t.TempDir(), "ci.toml")
		must(t, os.WriteFile(p, []byte(policy), 0o600))
		args = append(args, "--policy", p)
	}
	cmd := command(scenario, agentArgs(append(args, flags...)...)...)
	cmd.Env = append(cmd.Env, "XDG_CONFIG_HOME="+home)
	stdout, stderr := runCmd(t, cmd)
	r := ruleRun{outcomes: map[string]string{}, stdout: string(stdout), stderr: string(stderr), code: cmd.ProcessState.ExitCode()}
	for _, l := range strings.Split(r.stdout, "\n") {
		if name, out, ok := strings.Cut(l, ": "); ok {
			r.outcomes[name] = out
		}
	}
	if b, err := os.ReadFile(auditFile); err == nil {
		r.audit = string(b)
	}
	return r
}

// allowed lists the calls of RuleCalls a run allowed ("a") or not ("-").
func (r ruleRun) allowed(t *testing.T) string {
	t.Helper()
	s := ""
	for _, c := range hostile.RuleCalls {
		switch o := r.outcomes[c]; o {
		case "chose allow":
			s += "a"
		case "chose reject", "cancelled":
			s += "-"
		default:
			t.Fatalf("%s: outcome %q (an always option, or no answer)\nstdout:\n%s\nstderr:\n%s", c, o, r.stdout, r.stderr)
		}
	}
	return s
}

func TestRulesDecidePrompt(t *testing.T) {
	const srcAndTests = "[permissions]\nallow = [\"Bash(npm test:*)\", \"Edit(src/**)\"]\n"
	for _, tc := range []struct {
		name, config, policy string
		flags                []string
		want                 string // per RuleCalls: a(llowed) or -
		stderr               []string
	}{
		{name: "no rules", want: "--------"},
		{name: "--approve alone", flags: []string{"--approve"}, want: "aaaa-aaa",
			stderr: []string{".git/config runs code later", "--allow-write .git/config"}},
		{name: "--approve with --allow-write", flags: []string{"--approve", "--allow-write", ".git/config"}, want: "aaaaaaaa"},
		{name: "tests and src", policy: srcAndTests, want: "a--a----",
			stderr: []string{"permission for npm test: Yes (allowed by Bash(npm test:*) in ci.toml)", "permission for Edit src/a.go: Yes (allowed by Edit(src/**) in ci.toml)"}},
		{name: "Bash but rm", policy: "[permissions]\nallow = [\"Bash\"]\ndeny = [\"Bash(rm:*)\"]\n", want: "aa------",
			stderr: []string{"permission for rm -rf build: No (denied by Bash(rm:*) in ci.toml)"}},
		{name: "Edit(**) and .git/config", policy: "[permissions]\nallow = [\"Edit(**)\"]\n", want: "---a----",
			stderr: []string{"runs code later"}},
		{name: "deny beats --approve", policy: "[permissions]\ndeny = [\"Bash(rm:*)\", \"mcp__everything\"]\n", flags: []string{"--approve"}, want: "aa-a-aa-"},
		{name: "an ask rule and nobody to ask", policy: "[permissions]\nask = [\"Bash(git:*)\"]\nallow = [\"Bash\"]\n", want: "a-a-----",
			stderr: []string{"asked by Bash(git:*) in ci.toml, and there is no one to ask"}},
		{name: "fetch and MCP", policy: "[permissions]\nallow = [\"WebFetch(domain:docs.example.com)\", \"mcp__everything\"]\n", want: "-----a-a"},
		{name: "from the config file", config: srcAndTests, want: "a--a----",
			stderr: []string{"(allowed by Bash(npm test:*) in config.toml)"}},
		{name: "the agent's table", config: "[agents.h]\ncommand = [\"" + hostileAgent[0] + "\"]\n[agents.h.permissions]\nallow = [\"mcp__everything__echo\"]\n", want: "-------a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r ruleRun
			if tc.name == "the agent's table" {
				r = runNamed(t, tc.config, "h")
			} else {
				r = runRules(t, hostile.ScenarioRules, tc.config, tc.policy, tc.flags...)
			}
			if got := r.allowed(t); got != tc.want {
				t.Errorf("allowed %s, want %s\nstderr:\n%s", got, tc.want, r.stderr)
			}
			for _, s := range tc.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
		})
	}
}

// runNamed runs the named agent of config (the hostile agent) with -p.
func runNamed(t *testing.T, config, name string) ruleRun {
	t.Helper()
	home, dir := t.TempDir(), t.TempDir()
	must(t, os.MkdirAll(filepath.Join(home, "elicit"), 0o700))
	must(t, os.WriteFile(filepath.Join(home, "elicit", "config.toml"), []byte(config), 0o600))
	cmd := command(hostile.ScenarioRules, name, "--cwd", dir, "-p", "go", "--no-history")
	cmd.Env = append(cmd.Env, "XDG_CONFIG_HOME="+home)
	stdout, stderr := runCmd(t, cmd)
	r := ruleRun{outcomes: map[string]string{}, stdout: string(stdout), stderr: string(stderr)}
	for _, l := range strings.Split(r.stdout, "\n") {
		if name, out, ok := strings.Cut(l, ": "); ok {
			r.outcomes[name] = out
		}
	}
	return r
}

// TestRuleAuditAndErrors: the audit file names the rule that decided; a
// broken rule stops elicit before the agent starts, with exit status 2,
// naming the file, the line and the rule.
func TestRuleAuditAndErrors(t *testing.T) {
	r := runRules(t, hostile.ScenarioRules, "", "[permissions]\nallow = [\n  \"Bash(npm test:*)\",\n]\n")
	if !strings.Contains(r.audit, `"answered_by":"rule"`) || !strings.Contains(r.audit, `ci.toml:3"`) || !strings.Contains(r.audit, `"rule":"Bash(npm test:*) in `) {
		t.Errorf("the audit file does not name the rule:\n%s", r.audit)
	}
	for _, tc := range []struct{ config, policy, want string }{
		{policy: "[permissions]\nallow = [\"Bash(npm test:*)\",\n  \"Edit(src/[)\"]\n", want: `ci.toml:3: [permissions] allow: rule "Edit(src/[)": "src/[" is not a valid path pattern`},
		{config: "[permissions]\ndeny = [\"WebFetch(docs.example.com)\"]\n", want: `config.toml:2: [permissions] deny: rule "WebFetch(docs.example.com)": WebFetch takes domain:HOST`},
		{config: "[permissions]\nallow = []\ndefaultMode = \"plan\"\n", want: `config.toml:3: unknown key "permissions.defaultMode"`},
	} {
		r := runRules(t, hostile.ScenarioRules, tc.config, tc.policy)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
			t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", r.code, r.stdout, r.stderr, tc.want)
		}
	}
}

// TestRuleGates: the same rules decide elicit's own fs/write_text_file and
// terminal/create, which -p refuses without --approve.
func TestRuleGates(t *testing.T) {
	r := runRules(t, hostile.ScenarioRuleGates, "", "")
	for _, c := range []string{"write src/b.go", "run touch", "run rm"} {
		if !strings.HasPrefix(r.outcomes[c], "error ") {
			t.Errorf("without rules, %s: %q, want refused", c, r.outcomes[c])
		}
	}
	r = runRules(t, hostile.ScenarioRuleGates, "", "[permissions]\nallow = [\"Edit(src/**)\", \"Bash(touch:*)\"]\ndeny = [\"Bash(rm:*)\"]\n")
	if r.outcomes["write src/b.go"] != "ok" || r.outcomes["run touch"] != "ok" || !strings.HasPrefix(r.outcomes["run rm"], "error ") {
		t.Errorf("with rules: %v\nstderr:\n%s", r.outcomes, r.stderr)
	}
	for _, s := range []string{"(allowed by Edit(src/**) in ci.toml)", "(allowed by Bash(touch:*) in ci.toml)", "denied by Bash(rm:*) in ci.toml"} {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
		}
	}
}
