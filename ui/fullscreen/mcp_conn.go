package fullscreen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/mcpconn"
)

// mcpConnectedMsg reports the server reached, or why not.
type mcpConnectedMsg struct {
	conn *mcpconn.Conn
	err  error
}

// connectMCP starts (or reaches) the server off the loop.
func connectMCP(cfg mcpconn.Config) tea.Cmd {
	return func() tea.Msg {
		c, err := mcpconn.Connect(context.Background(), cfg)
		return mcpConnectedMsg{c, err}
	}
}

// listedMsg carries what the server offers.
type listedMsg struct {
	tools     []mcpconn.Tool
	prompts   []mcpconn.Item
	resources []mcpconn.Item
	err       error
}

// list reads the server's tools, prompts and resources.
func list(c *mcpconn.Conn) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var l listedMsg
		var errs []error
		var err error
		l.tools, err = c.Tools(ctx)
		errs = append(errs, err)
		l.prompts, err = c.Prompts(ctx)
		errs = append(errs, err)
		l.resources, err = c.Resources(ctx)
		errs = append(errs, err)
		l.err = errors.Join(errs...)
		return l
	}
}

// mcpEventMsg carries one event of the server's stream.
type mcpEventMsg struct {
	conn *mcpconn.Conn
	ev   mcpconn.Event
	ok   bool
}

// pumpMCP reads the connection's next event.
func pumpMCP(c *mcpconn.Conn) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-c.Events()
		return mcpEventMsg{c, ev, ok}
	}
}

// callSpec is a tool call the user asked for: kept for a -32042 retry.
type callSpec struct {
	tool  mcpconn.Tool
	args  json.RawMessage
	retry bool // this is the retry after -32042
}

// running is the call in flight.
type running struct {
	spec     callSpec
	token    string
	cancel   context.CancelFunc
	started  time.Time
	progress mcpconn.Progress
	hasProg  bool
	stopping bool // cancel was pressed
}

// callDoneMsg reports a call's result.
type callDoneMsg struct {
	run *running
	res *mcp.CallToolResult
	err error
}

// callKey names the running call for the core's -32042 retry.
const callKey = "call"

// startCall runs a tool call off the loop.
func (m *mcpPanel) startCall(spec callSpec) tea.Cmd {
	if m.conn == nil || m.exited {
		m.tr.notice("not connected: the call was not made", true)
		return nil
	}
	m.calls++
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{spec: spec, token: fmt.Sprintf("elicit-%d", m.calls), cancel: cancel, started: m.now()}
	m.call, m.lastCall = r, &spec
	m.core.Prompted(callKey)
	label := "▸ " + spec.tool.Display()
	if string(spec.args) != "" && string(spec.args) != "{}" {
		label += " " + sanitize.Summary(string(spec.args), 200)
	}
	if spec.retry {
		label += " (again, after the URL flows)"
	}
	m.tr.lines(lineCall, label)
	c := m.conn
	return func() tea.Msg {
		res, err := c.CallTool(ctx, mcpconn.Call{Name: spec.tool.Name, Args: spec.args, ProgressToken: r.token})
		return callDoneMsg{r, res, err}
	}
}
