package acpconn

import (
	"encoding/json"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// A terminal sign-in runs the agent's own command line, wrapper and all,
// with the method's arguments in place of the ACP flag the agent documents
// (qwen's --acp) or after it; a command elicit cannot be sure of is marked
// a guess, for the user to check and edit.
func TestLoginCommandKeepsTheWrapper(t *testing.T) {
	const (
		claude = `{"id":"claude-ai-login","name":"Claude Subscription","type":"terminal","args":["--cli","auth","login","--claudeai"]}`
		qwen   = `{"id":"openai","name":"Use OpenAI API key","description":"Requires setting the ` + "`OPENAI_API_KEY`" + ` environment variable","_meta":{"type":"terminal","args":["--auth-type=openai"]}}`
		prose  = `{"id":"opencode-login","name":"Login with opencode","description":"Run ` + "`opencode auth login`" + ` in the terminal"}`
		cc     = `{"id":"claude-login","name":"Log in with Claude Code","description":"Run ` + "`claude /login`" + ` in the terminal"}`
		plain  = `{"id":"copilot-login","name":"Log in","_meta":{"terminal-auth":{"command":"/opt/copilot","args":["login"]}}}`
	)
	cases := []struct {
		method, argv, want string
		guess              bool
	}{
		{qwen, "env HOME=/x qwen --acp", "env HOME=/x qwen --auth-type=openai", false},
		{qwen, "./asuser.sh qwen --acp", "./asuser.sh qwen --auth-type=openai", false},
		{qwen, "npx -y @qwen-code/qwen-code@0.24.4 --acp", "npx -y @qwen-code/qwen-code@0.24.4 --auth-type=openai", false},
		{qwen, "bunx @qwen-code/qwen-code --experimental-acp --yolo", "bunx @qwen-code/qwen-code --auth-type=openai --yolo", false},
		{qwen, "docker run -i --rm qwen-image qwen --acp", "docker run -i --rm qwen-image qwen --auth-type=openai", false},
		{qwen, "qwen-acp.sh", "qwen-acp.sh --auth-type=openai", true}, // the flag hidden in the script
		{claude, "node /opt/claude-agent-acp/dist/index.js", "node /opt/claude-agent-acp/dist/index.js --cli auth login --claudeai", false},
		{claude, "npx -y @agentclientprotocol/claude-agent-acp@0.101.0", "npx -y @agentclientprotocol/claude-agent-acp@0.101.0 --cli auth login --claudeai", false},
		{claude, "sudo -u bob claude-agent-acp", "sudo -u bob claude-agent-acp --cli auth login --claudeai", false},
		{claude, "uvx some-agent", "uvx some-agent --cli auth login --claudeai", false},
		{prose, "env HOME=/x opencode acp", "env HOME=/x opencode auth login", false},
		{prose, "/usr/local/bin/opencode acp", "/usr/local/bin/opencode auth login", false},
		{cc, "npx @zed-industries/claude-code-acp", "claude /login", true},
		{cc, "claude-code-acp", "claude /login", false},
		{cc, "/opt/bin/claude-code-acp --verbose", "claude /login", false},
		{plain, "env HOME=/x copilot --acp", "env HOME=/x copilot login", false},
		{plain, "npx @github/copilot --acp", "npx @github/copilot login", false},
		{plain, "npx @github/copilot-cli --acp", "/opt/copilot login", true},
	}
	for _, c := range cases {
		var am acp.AuthMethod
		if err := json.Unmarshal([]byte(c.method), &am); err != nil {
			t.Fatal(err)
		}
		ms := parseAuthMethods([]acp.AuthMethod{am}, strings.Fields(c.argv))
		if len(ms) != 1 || ms[0].Kind != AuthTerminal {
			t.Fatalf("%s: %+v", c.argv, ms)
		}
		if got := ms[0].CommandLine(); got != c.want || ms[0].Guess != c.guess {
			t.Errorf("%s with %s: %q (guess %v), want %q (guess %v)", c.argv, ms[0].ID, got, ms[0].Guess, c.want, c.guess)
		}
	}
}
