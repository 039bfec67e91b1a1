package fullscreen

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// newMCPDriver runs `elicit mcp`'s full screen against the test binary as
// a real MCP server over real pipes, once its tools are listed.
func newMCPDriver(t *testing.T, o Options) *driver {
	lc := &procgroup.Lifecycle{}
	t.Cleanup(lc.Shutdown)
	cfg := uitest.MCPConfig(t)
	cfg.Lifecycle = lc
	d := mcpDriver(t, cfg, o)
	d.waitText("[Tools (9)]")
	return d
}

// mcpDriver runs the full screen of the server cfg, started.
func mcpDriver(t *testing.T, cfg mcpconn.Config, o Options) *driver {
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	rec := &uitest.Recorder{}
	o.Now, o.Opener, o.NoColor, o.Theme = clk.now, rec, true, "dark"
	d := &driver{t: t, m: NewMCP(cfg, o), clk: clk, open: rec, msgs: make(chan tea.Msg, 4096)}
	d.feed(tea.WindowSizeMsg{Width: 100, Height: 40})
	d.run(d.m.Init())
	t.Cleanup(d.m.Close)
	return d
}

// mcp is the screen's MCP panel.
func (m *Model) mcp() *mcpPanel { return m.src.(*mcpPanel) }

// pick selects the tool named name in the list.
func (d *driver) pick(name string) {
	d.t.Helper()
	p := d.m.mcp()
	for range p.count(tabTools) {
		if p.tools[p.sel[tabTools]].Name == name {
			return
		}
		d.key("down")
	}
	d.t.Fatalf("no tool %s", name)
}
