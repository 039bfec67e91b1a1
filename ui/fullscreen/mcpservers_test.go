package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// The config file's MCP servers: the ones the agent cannot take are said
// in the transcript, and the session settings list each, given or left
// out with why (issue 35, item 12).
func TestSettingsListMCPServers(t *testing.T) {
	cfg := uitest.ScriptConfig(t, "settings")
	cfg.MCPServers = []acpconn.MCPServer{
		{Name: "everything", Transport: acpconn.MCPStdio, Command: "/usr/bin/mcp-everything"},
		{Name: "docs", Transport: acpconn.MCPHTTP, URL: "https://docs.example/mcp"},
	}
	d := newDriver(t, Options{Agent: cfg})
	d.connected()
	d.waitText("MCP servers not given to the agent: docs (http): the agent takes no MCP server over HTTP")
	d.key("ctrl+o")
	d.waitText("Session settings")
	for _, want := range []string{"✓ everything (stdio): given to the agent", "✗ docs (http): left out: the agent takes no MCP server over HTTP"} {
		if !strings.Contains(d.screen(), want) {
			t.Errorf("settings lack %q:\n%s", want, d.screen())
		}
	}
}
