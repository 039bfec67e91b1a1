package fullscreen

import (
	"path/filepath"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/session"
)

// mcpPanel is the full screen's source when it talks to an MCP server
// (elicit mcp): the server's tools, prompts and resources in lists, a
// tool's arguments as a form built from its inputSchema (or a JSON editor
// checked against it, where the schema is richer than a form), the call
// running with its progress, and its result in the transcript. The
// server's elicitations are the root's questions, as an agent's are. It
// embeds the root it belongs to.
type mcpPanel struct {
	*Model

	cfg     mcpconn.Config
	conn    *mcpconn.Conn
	connErr string
	exited  bool
	tools   []mcpconn.Tool
	prompts []mcpconn.Item
	res     []mcpconn.Item
	tab     tab
	sel     [3]int
	listOff [3]int
	pane    pane
	args    *argsForm
	editor  *jsonEditor
	// editorDrafts keeps the JSON editor's text per tool, so esc loses
	// nothing.
	editorDrafts map[string]string
	call         *running  // the call running, if any
	next         *callSpec // a call asked for meanwhile: it runs next
	lastCall     *callSpec
	calls        int
}

// pane is what the panel shows.
type pane int

const (
	paneList   pane = iota // the tools, prompts and resources
	paneArgs               // a tool's arguments as a form
	paneEditor             // a tool's arguments as JSON
)

// tab is one list of the list pane.
type tab int

const (
	tabTools tab = iota
	tabPrompts
	tabResources
)

// NewMCP returns the full screen of the MCP server cfg (elicit mcp); Init
// connects to it. Of o, the agent's fields are not read.
func NewMCP(cfg mcpconn.Config, o Options) *Model {
	m := newRoot(o, "elicit mcp", session.Policy{Peer: "server", Retried: "call"})
	p := &mcpPanel{Model: m, cfg: cfg, editorDrafts: map[string]string{}}
	m.src, m.name = p, serverLabel(cfg)
	return m
}

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

// connect reaches the server.
func (m *mcpPanel) connect() tea.Cmd {
	m.tr.info("connecting to " + m.name + "…")
	return connectMCP(m.cfg)
}

// handle takes the server's events and what the panel's commands report.
func (m *mcpPanel) handle(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case mcpConnectedMsg:
		return m.onConnected(msg), true
	case listedMsg:
		m.onListed(msg)
		return nil, true
	case mcpEventMsg:
		return m.onEvent(msg), true
	case callDoneMsg:
		return m.onCallDone(msg), true
	}
	return nil, false
}

// rest goes to the arguments being typed.
func (m *mcpPanel) rest(msg tea.Msg) tea.Cmd {
	switch m.pane {
	case paneArgs:
		return m.args.update(msg)
	case paneEditor:
		return m.editor.update(msg)
	}
	return nil
}

// busy: the spinner turns (and the call's line with it) while a call
// runs.
func (m *mcpPanel) busy() bool { return m.call != nil }

// shutdown cancels the call running and quits; Close ends the server.
func (m *mcpPanel) shutdown() tea.Cmd {
	if m.call != nil {
		m.call.cancel()
	}
	return tea.Quit
}

// closeSource ends the server (its whole process group).
func (m *mcpPanel) closeSource() {
	if m.conn != nil {
		m.conn.Close()
	}
}

// The panel's keys, as data (the keys screen and the status bar).
var mcpKeys = struct {
	Pick, Run, Lists, Check, Back key.Binding
}{
	Pick:  key.NewBinding(key.WithKeys("up", "down", "k", "j", "home", "end"), key.WithHelp("↑/↓", "pick")),
	Run:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
	Lists: key.NewBinding(key.WithKeys("left", "right", "tab", "shift+tab"), key.WithHelp("←/→", "lists")),
	Check: key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "check and run")),
	Back:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back / cancel the call")),
}

// help: the status bar's keys, by pane, and the keys screen's columns.
func (m *mcpPanel) help() (short []key.Binding, full [][]key.Binding) {
	k, p := m.keys, mcpKeys
	cancel := k.Cancel
	cancel.SetHelp("ctrl+c", "cancel the call / quit (twice)")
	full = [][]key.Binding{{p.Pick, p.Run, p.Lists, p.Check, p.Back}, {k.Answer, k.PageUp, k.PageDown, k.Flows, cancel, k.Suspend, k.Help}}
	flows, quit := k.Flows, k.Cancel
	flows.SetHelp("ctrl+g", "flows")
	quit.SetHelp("ctrl+c×2", "quit")
	switch m.pane {
	case paneArgs:
		return []key.Binding{p.Back, k.Help}, full
	case paneEditor:
		return []key.Binding{p.Check, p.Back}, full
	}
	return []key.Binding{p.Pick, p.Run, p.Lists, flows, quit}, full
}

// global: the panel has no key of its own beside those of where the user
// types.
func (m *mcpPanel) global(tea.KeyPressMsg) (tea.Cmd, bool) { return nil, false }
