package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNamedAgentPrompt runs the built binary as a user would, with a
// configured agent (the demo agent under another name) and flags after
// its name: `elicit probe -p TEXT --answers FILE`.
func TestNamedAgentPrompt(t *testing.T) {
	bin := elicitBinary(t)
	home, work := t.TempDir(), t.TempDir()
	cfg := filepath.Join(home, "elicit", "config.toml")
	os.Mkdir(filepath.Dir(cfg), 0o700)
	os.WriteFile(cfg, []byte("[agents.probe]\ncommand = [\""+bin+"\", \"__demo-agent\"]\n"), 0o600)
	answers := filepath.Join(work, "a.json")
	os.WriteFile(answers, []byte(`{"name":"Ada"}`), 0o600)
	env := []string{"XDG_CONFIG_HOME=" + home, "XDG_STATE_HOME=" + t.TempDir()}
	r := runBinary(t, env, "", "probe", "-p", "/form defaults", "--answers", answers, "--cwd", work)
	if r.code != 0 || !strings.Contains(r.stdout, `"name": "Ada"`) {
		t.Errorf("probe -p --answers: %v", r)
	}
	// The same with the flags first, and the agent's command after --.
	r = runBinary(t, env, "", "--answers", answers, "--cwd", work, "-p", "/form defaults", "--", bin, "__demo-agent")
	if r.code != 0 || !strings.Contains(r.stdout, `"name": "Ada"`) {
		t.Errorf("-- command: %v", r)
	}
	// --resume ID takes the ID, and the agent is asked for that session
	// (the demo agent keeps none, and says so).
	r = runBinary(t, env, "", "--resume", "4f2c", "-p", "hi", "--cwd", work, "--", bin, "__demo-agent")
	if r.code != exitFailed || !strings.Contains(r.stderr, "--resume") || strings.Contains(r.stderr, "unexpected argument") {
		t.Errorf("--resume ID: %v", r)
	}
	// An unknown name, no terminal: exit 2 with the names known.
	r = runBinary(t, env, "", "nope", "-p", "hi")
	if r.code != exitUsage || !strings.Contains(r.stderr, `no agent named "nope"`) || !strings.Contains(r.stderr, "probe") {
		t.Errorf("unknown agent: %v", r)
	}
}
