package mcpui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
)

// serverLabel names the server before it says its own name.
func serverLabel(c mcpconn.Config) string {
	if c.URL != "" {
		return sanitize.Line(c.URL)
	}
	if len(c.Argv) > 0 {
		return sanitize.Line(filepath.Base(c.Argv[0]))
	}
	return "the server"
}

type connectedMsg struct {
	conn *mcpconn.Conn
	err  error
}

// connect starts (or reaches) the server off the loop.
func connect(cfg mcpconn.Config) tea.Cmd {
	return func() tea.Msg {
		c, err := mcpconn.Connect(context.Background(), cfg)
		return connectedMsg{c, err}
	}
}

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

type eventMsg struct {
	conn *mcpconn.Conn
	ev   mcpconn.Event
	ok   bool
}

// pump reads the connection's next event.
func pump(c *mcpconn.Conn) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-c.Events()
		return eventMsg{c, ev, ok}
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

type callDoneMsg struct {
	run *running
	res *mcp.CallToolResult
	err error
}

// startCall runs a tool call off the loop.
func (m *Model) startCall(spec callSpec) tea.Cmd {
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
	m.tr.add(lineCall, label)
	c := m.conn
	return tea.Batch(runTick(r), func() tea.Msg {
		res, err := c.CallTool(ctx, mcpconn.Call{Name: spec.tool.Name, Args: spec.args, ProgressToken: r.token})
		return callDoneMsg{r, res, err}
	})
}

// runTickMsg redraws the running call's line, so its time moves on
// between the server's progress notifications.
type runTickMsg struct{ run *running }

func runTick(r *running) tea.Cmd {
	return tea.Tick(250*time.Millisecond, func(time.Time) tea.Msg { return runTickMsg{r} })
}

// callKey names the running call for the core's -32042 retry.
const callKey = "call"

type preparedMsg struct {
	q    *question.Question
	prep session.Prep
}

func prepare(c *session.Core, q *question.Question) tea.Cmd {
	return func() tea.Msg { return preparedMsg{q: q, prep: c.Prepare(context.Background(), q)} }
}

type afterMsg struct {
	p     session.Pending
	out   question.Outcome
	notes []session.Note
}

func afterHooks(c *session.Core, p session.Pending) tea.Cmd {
	return func() tea.Msg {
		out, notes := c.AfterHooks(context.Background(), p)
		return afterMsg{p: p, out: out, notes: notes}
	}
}

// ageTickMsg redraws the flows panel so the ages stay current.
type ageTickMsg struct{}

func ageTick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return ageTickMsg{} })
}
