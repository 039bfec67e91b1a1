package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sample = `# the issue's example
[agents.claude]                  # ` + "`elicit claude`" + ` runs it
command = ["claude-agent-acp"]
env = { ANTHROPIC_BASE_URL = "http://127.0.0.1:8080" }
api_key_env = "ELICIT_CLAUDE_KEY"

[[hooks]]
event = "Elicitation"            # or "ElicitationResult"
command = ["/path/to/hook", "--flag"]
agent = "claude*"                # optional glob
timeout = "10s"                  # optional

[[hooks]]
event = "ElicitationResult"
command = ["/bin/true"]
`

func TestParseSample(t *testing.T) {
	c, err := Parse([]byte(sample), "config.toml")
	if err != nil {
		t.Fatal(err)
	}
	a := c.AgentEntries["claude"]
	if len(a.Command) != 1 || a.Command[0] != "claude-agent-acp" || a.Env["ANTHROPIC_BASE_URL"] != "http://127.0.0.1:8080" || a.APIKeyEnv != "ELICIT_CLAUDE_KEY" {
		t.Errorf("agent = %+v", a)
	}
	if len(c.Hooks) != 2 {
		t.Fatalf("hooks = %+v", c.Hooks)
	}
	h := c.Hooks[0]
	if h.Event != Elicitation || h.Agent != "claude*" || h.Deadline() != 10*time.Second || h.Line != 7 {
		t.Errorf("hook 0 = %+v", h)
	}
	if c.Hooks[1].Deadline() != DefaultHookTimeout || c.Hooks[1].Line != 13 {
		t.Errorf("hook 1 = %+v", c.Hooks[1])
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, doc string
		line      int
		want      string
	}{
		{"unknown top key", "theme = \"dark\"\ncolour = \"red\"\n", 2, `unknown key "colour"`},
		{"unknown agent key", "[agents.x]\ncommand = [\"x\"]\nenvv = {}\n", 3, `unknown key "agents.x.envv"`},
		{"unknown hook key", "[[hooks]]\nevent = \"Elicitation\"\ncommand = [\"x\"]\nmatcher = \"*\"\n", 4, `unknown key "hooks.matcher"`},
		{"bad glob", "[[hooks]]\nevent = \"Elicitation\"\ncommand = [\"x\"]\nagent = \"claude[\"\n", 4, "agent glob"},
		{"bad duration", "[[hooks]]\nevent = \"Elicitation\"\ncommand = [\"x\"]\n\ntimeout = \"10 seconds\"\n", 5, `duration "10 seconds"`},
		{"zero duration", "[[hooks]]\nevent = \"Elicitation\"\ncommand = [\"x\"]\ntimeout = \"0s\"\n", 4, "more than zero"},
		{"bad event", "[[hooks]]\nevent = \"PreToolUse\"\ncommand = [\"x\"]\n", 2, `event "PreToolUse"`},
		{"no event", "\n[[hooks]]\ncommand = [\"x\"]\n", 2, "has no event"},
		{"no command", "[[hooks]]\nevent = \"Elicitation\"\ncommand = [\"a\"]\n[[hooks]]\nevent = \"Elicitation\"\ncommand = []\n", 4, "number 2 has no command"},
		{"bad theme", "theme = \"blue\"\n", 1, `theme "blue"`},
		{"bad notify", "\n\nnotify = \"sometimes\"\n", 3, `notify "sometimes"`},
		{"wrong type", "history = \"yes\"\n", 1, "bool"},
		{"syntax", "[agents.x\ncommand = 1\n", 1, ""},
		{"agent no command", "[agents.x]\nenv = {A = \"b\"}\n", 1, "[agents.x] has no command"},
		{"reserved name", "\n[agents.history]\ncommand = [\"x\"]\n", 2, "sub-command"},
		{"bad name", "[agents.\"a b\"]\ncommand = [\"x\"]\n", 1, `agent name "a b"`},
		{"a key, not its variable", "\n[agents.x]\ncommand = [\"x\"]\napi_key_env = \"sk-123\"\n", 2, "api_key_env is not a variable's name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc), "c.toml")
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if e.Line != tt.line || !strings.Contains(e.Msg, tt.want) {
				t.Errorf("got %v, want line %d and %q", err, tt.line, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "c.toml:") {
				t.Errorf("error %q does not start with the file", err)
			}
		})
	}
}

func TestHooksFor(t *testing.T) {
	doc := `[[hooks]]
event = "Elicitation"
command = ["a"]
agent = "claude*"
[[hooks]]
event = "Elicitation"
command = ["b"]
[[hooks]]
event = "ElicitationResult"
command = ["c"]
agent = "gemini"
`
	c, err := Parse([]byte(doc), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		event Event
		agent string
		want  string
	}{
		{Elicitation, "claude", "ab"},
		{Elicitation, "claude-code", "ab"},
		{Elicitation, "gemini", "b"},
		{ElicitationResult, "gemini", "c"},
		{ElicitationResult, "claude", ""},
	}
	for _, tt := range tests {
		var got string
		for _, h := range c.HooksFor(tt.event, tt.agent) {
			got += h.Command[0]
		}
		if got != tt.want {
			t.Errorf("HooksFor(%s, %s) = %q, want %q", tt.event, tt.agent, got, tt.want)
		}
	}
}

func TestSettings(t *testing.T) {
	off, on := false, true
	dark := ThemeDark
	tests := []struct {
		name string
		doc  string
		o    Overrides
		want Settings
	}{
		{"defaults", "", Overrides{}, Settings{History: true, Theme: ThemeAuto, Notify: NotifyUnfocused}},
		{"file", "history = false\ntheme = \"light\"\nnotify = \"never\"\ntop_domains = [\"a.com\"]\n", Overrides{},
			Settings{History: false, Theme: ThemeLight, Notify: NotifyNever, TopDomains: []string{"a.com"}}},
		{"flags win", "history = false\ntheme = \"light\"\ntop_domains = [\"a.com\"]\n", Overrides{History: &on, Theme: &dark, TopDomains: []string{"b.com"}},
			Settings{History: true, Theme: ThemeDark, Notify: NotifyUnfocused, TopDomains: []string{"a.com", "b.com"}}},
		{"no-history", "history = true\n", Overrides{History: &off}, Settings{History: false, Theme: ThemeAuto, Notify: NotifyUnfocused}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.doc), "c.toml")
			if err != nil {
				t.Fatal(err)
			}
			got := c.Settings(tt.o)
			if got.History != tt.want.History || got.Theme != tt.want.Theme || got.Notify != tt.want.Notify || strings.Join(got.TopDomains, ",") != strings.Join(tt.want.TopDomains, ",") {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/x/cfg")
	if got := DefaultPath(); got != "/x/cfg/elicit/config.toml" {
		t.Errorf("with XDG_CONFIG_HOME: %s", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative")
	t.Setenv("HOME", "/home/u")
	if got := DefaultPath(); got != "/home/u/.config/elicit/config.toml" {
		t.Errorf("without: %s", got)
	}
}

func TestLoadMissing(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "none.toml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load missing: %v", err)
	}
	t.Setenv("XDG_CONFIG_HOME", dir)
	c, err := LoadDefault()
	if err != nil || c.Path != filepath.Join(dir, "elicit", "config.toml") {
		t.Errorf("LoadDefault = %+v, %v", c, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "elicit"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c.Path, []byte("nope = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDefault(); err == nil || !strings.Contains(err.Error(), "config.toml:1: unknown key") {
		t.Errorf("LoadDefault of a bad file: %v", err)
	}
}

// A key written where its variable's name goes is refused without being
// repeated: the error is printed on the terminal.
func TestAPIKeyEnvNotEchoed(t *testing.T) {
	_, err := Parse([]byte("[agents.x]\ncommand = [\"x\"]\napi_key_env = \"sk-zq9-secret\"\n"), "c.toml")
	if err == nil || strings.Contains(err.Error(), "zq9") {
		t.Fatalf("err = %v", err)
	}
}

// TestTypingWindow: typing_window is read as a duration, and one outside
// its bounds is an error that names it.
func TestTypingWindow(t *testing.T) {
	c, err := Parse([]byte("typing_window = \"3s\"\n"), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Settings(Overrides{}).TypingWindow; got != 3*time.Second {
		t.Errorf("typing_window = 3s reads as %v", got)
	}
	for _, bad := range []string{"10ms", "2m", "soon"} {
		_, err := Parse([]byte("typing_window = \""+bad+"\"\n"), "c.toml")
		if err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("typing_window = %q: error %v, want one naming it", bad, err)
		}
	}
}
