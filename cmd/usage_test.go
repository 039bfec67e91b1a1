package cmd

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestUsageErrorsOfEveryCommand: every command that is given arguments it
// does not take, or too few, exits 2 with a sentence that says what to
// give (never cobra's "accepts 1 arg(s), received 0") and points at its
// own help; every visible command is in the table.
func TestUsageErrorsOfEveryCommand(t *testing.T) {
	cases := []struct {
		args []string
		says string
		help string // the command whose --help the error points at
	}{
		{[]string{"npx", "some-agent"}, "2 words before --", "elicit"},
		{[]string{"agents", "x"}, `elicit agents: unexpected argument "x" (it takes none)`, "elicit agents"},
		{[]string{"attach"}, "elicit attach: give the host's URL, as elicit serve printed it", "elicit attach"},
		{[]string{"attach", "ws://a/", "ws://b/"}, `one URL, not 2: "ws://a/" "ws://b/"`, "elicit attach"},
		{[]string{"completion"}, "elicit completion: name the shell", "elicit completion"},
		{[]string{"completion", "nope"}, `elicit completion: unknown shell "nope": elicit completion bash, zsh, fish or powershell`, "elicit completion"},
		{[]string{"completion", "bash", "x"}, `elicit completion bash: unexpected argument "x" (it takes none)`, "elicit completion bash"},
		{[]string{"completion", "zsh", "x"}, "(it takes none)", "elicit completion zsh"},
		{[]string{"completion", "fish", "x"}, "(it takes none)", "elicit completion fish"},
		{[]string{"completion", "powershell", "x"}, "(it takes none)", "elicit completion powershell"},
		{[]string{"config", "bogus"}, `elicit config: unknown command "bogus" (its commands: check, path)`, "elicit config"},
		{[]string{"config", "path", "x"}, "elicit config path: unexpected argument", "elicit config path"},
		{[]string{"config", "check", "x"}, "elicit config check: unexpected argument", "elicit config check"},
		{[]string{"demo"}, "elicit demo --serve [ADDR]", "elicit demo"},
		{[]string{"demo", "--serve", "a:1", "b:2"}, `one ADDR, not 2: "a:1" "b:2"`, "elicit demo"},
		{[]string{"form", "a.json", "b.json"}, `one schema FILE (or - for stdin), not 2: "a.json" "b.json"`, "elicit form"},
		{[]string{"help", "bogus"}, `unknown help topic "bogus"`, "elicit"},
		{[]string{"history", "purge"}, `elicit history: unknown command "purge" (its commands: clear, forget, list)`, "elicit history"},
		{[]string{"history", "list", "x"}, "(it takes none)", "elicit history list"},
		{[]string{"history", "forget"}, "elicit history forget: give the AGENT whose answers to forget (elicit history lists them)", "elicit history forget"},
		{[]string{"history", "forget", "a", "b"}, `one AGENT, not 2: "a" "b"`, "elicit history forget"},
		{[]string{"history", "clear", "x"}, "(it takes none)", "elicit history clear"},
		{[]string{"inbox", "bogus"}, `elicit inbox: unknown command "bogus" (its commands: answer, devices, list, pair, web)`, "elicit inbox"},
		{[]string{"inbox", "--listen", "127.0.0.1:0"}, "--listen goes with --web (or elicit inbox web)", "elicit inbox"},
		{[]string{"inbox", "web", "x"}, `elicit inbox web: unexpected argument "x" (it takes none)`, "elicit inbox web"},
		{[]string{"inbox", "web", "--listen", "0.0.0.0:0"}, "not a loopback address: the web inbox serves other addresses only over TLS", "elicit inbox web"},
		{[]string{"inbox", "pair", "x"}, `elicit inbox pair: unexpected argument "x" (it takes none)`, "elicit inbox pair"},
		{[]string{"inbox", "devices", "x"}, `elicit inbox devices: unexpected argument "x" (it takes none)`, "elicit inbox devices"},
		{[]string{"inbox", "list", "--json", "--count"}, "--json and --count: give one", "elicit inbox list"},
		{[]string{"inbox", "answer"}, "elicit inbox answer: give the id of a waiting question", "elicit inbox answer"},
		{[]string{"inbox", "answer", "1-a.q1"}, "give one of --answers FILE, --accept-defaults, --decline or --cancel", "elicit inbox answer"},
		{[]string{"man", "x"}, "(it takes none)", "elicit man"},
		{[]string{"mcp", "my-server"}, "the server's command goes after --", "elicit mcp"},
		{[]string{"mcp", "call"}, "elicit mcp call: name the tool", "elicit mcp call"},
		{[]string{"mcp", "tools", "my-server"}, "the server's command goes after --", "elicit mcp tools"},
		{[]string{"serve", "a", "b"}, "2 words before --", "elicit serve"},
		{[]string{"sessions", "a", "b"}, "2 words before --", "elicit sessions"},
		{[]string{"url"}, "elicit url: give one URL or more", "elicit url"},
		{[]string{"version", "x"}, `elicit version: unexpected argument "x" (it takes none)`, "elicit version"},
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		covered[tc.help] = true
		r := runTree(t, "", tc.args...)
		if r.code != exitUsage || r.session != nil {
			t.Errorf("%q: want exit 2 and no session: %v", tc.args, r)
			continue
		}
		if !strings.Contains(r.stderr, tc.says) {
			t.Errorf("%q: stderr lacks %q:\n%s", tc.args, tc.says, r.stderr)
		}
		if strings.Contains(r.stderr, "arg(s)") {
			t.Errorf("%q: cobra's wording:\n%s", tc.args, r.stderr)
		}
		if want := "Try '" + tc.help + " --help' for usage."; !strings.Contains(r.stderr, want) {
			t.Errorf("%q: stderr lacks %q:\n%s", tc.args, want, r.stderr)
		}
	}
	for _, path := range visibleCommands(t) {
		if name := strings.Join(append([]string{"elicit"}, path...), " "); name != "elicit help" && !covered[name] {
			t.Errorf("%s: no case in the table", name)
		}
	}
}

// TestUnknownFlagPointsAtItsCommand: an unknown flag on any visible
// command exits 2 and points at that command's help.
func TestUnknownFlagPointsAtItsCommand(t *testing.T) {
	for _, path := range visibleCommands(t) {
		help := strings.Join(append([]string{"elicit"}, path...), " ")
		if len(path) > 0 && path[0] == "help" {
			help = "elicit"
		}
		r := runTree(t, "", append(path, "--bogus-flag")...)
		want := "Try '" + help + " --help' for usage."
		if r.code != exitUsage || !strings.Contains(r.stderr, "unknown flag: --bogus-flag") || !strings.Contains(r.stderr, want) {
			t.Errorf("%q --bogus-flag: want exit 2 and %q: %v", path, want, r)
		}
	}
}

// visibleCommands lists the path of every command help shows, the
// root's (nil) first, as the tree is when it runs.
func visibleCommands(t *testing.T) [][]string {
	t.Helper()
	root := newRootCommand(newApp(nil, nil, nil))
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if c.Hidden && c.Name() != "man" {
			return
		}
		paths = append(paths, path)
		for _, s := range c.Commands() {
			walk(s, append(path[:len(path):len(path)], s.Name()))
		}
	}
	walk(root, nil)
	return paths
}
