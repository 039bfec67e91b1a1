package headless

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// -p says on stderr which of the config file's MCP servers the agent was
// not given, and why; the reply is untouched (issue 35, item 12).
func TestHeadlessSaysMCPServersLeftOut(t *testing.T) {
	cfg := uitest.ScriptConfig(t, "codex")
	cfg.MCPServers = []acpconn.MCPServer{{Name: "events", Transport: acpconn.MCPSSE, URL: "https://events.example/sse"}}
	code, stdout, stderr := runHeadless(t, Options{Agent: cfg})
	want := "elicit: MCP servers not given to the agent: events (sse): the agent takes no MCP server over SSE (its mcpCapabilities.sse is not set)\n"
	if code != ExitOK || !strings.Contains(stderr, want) || !strings.HasPrefix(stdout, "Calling exec_command.") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
