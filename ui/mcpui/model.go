package mcpui

import (
	"context"
	"encoding/json"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/ui"
	"github.com/elicit-dev/elicit/ui/internal/focus"
	"github.com/elicit-dev/elicit/ui/internal/share"
	"github.com/elicit-dev/elicit/urlconsent"
)

// Options configure the full screen.
type Options struct {
	Server    mcpconn.Config
	Opener    urlconsent.Opener // nil = the system browser
	AutoRetry bool              // retry a -32042 call once its flows are complete, without asking (once)
	// Answers (--answers) answers every form without asking, then the
	// defaults; a form it cannot fill is declined, with the reason shown.
	Answers map[string]json.RawMessage
	Memory  ui.Memory // hooks, history, audit log
	// Theme is "dark" or "light", else it follows the terminal.
	Theme   string
	NoColor bool
	Now     func() time.Time // nil = time.Now
	// Width and Height are the terminal's size when known at start.
	Width, Height int
	// Share puts the server's questions in the user's inbox too: an
	// answer given there closes the question here (share.go).
	Share *share.Share
}

// pane is what the main area shows when no question has the keys.
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

// Model is the root model of `elicit mcp`.
type Model struct {
	opts Options
	now  func() time.Time
	th   *theme.Theme
	w, h int

	conn    *mcpconn.Conn
	connErr string
	exited  bool
	core    *session.Core
	server  string // the server's display name
	version string
	tools   []mcpconn.Tool
	prompts []mcpconn.Item
	res     []mcpconn.Item
	tab     tab
	sel     [3]int
	listOff [3]int
	pane    pane
	args    *argsForm
	editor  *jsonEditor
	// editorDrafts keeps the JSON editor's text per tool.
	editorDrafts map[string]string
	call         *running  // the call running, if any
	next         *callSpec // a call asked for meanwhile: it runs next
	lastCall     *callSpec
	calls        int

	tr        transcript
	queue     []modal
	arb       focus.Arbiter
	showFlows bool
	flowSel   int
	armed     time.Time // the first Ctrl+C of a quit
	quitting  bool
}

// New returns the model; it connects when the program starts.
func New(o Options) *Model {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	if o.Opener == nil {
		o.Opener = urlconsent.BrowserOpener{}
	}
	m := &Model{opts: o, now: now, w: o.Width, h: o.Height, server: serverLabel(o.Server)}
	if m.w <= 0 || m.h <= 0 {
		m.w, m.h = 80, 24
	}
	m.arb = focus.Arbiter{Now: now}
	m.setTheme(o.Theme != "light")
	m.core = session.New(nil, session.Policy{Person: true, Answers: o.Answers, AutoRetry: o.AutoRetry, Peer: "server", Retried: "call"}, now)
	session.FlowsKeyName = "ctrl+g"
	if o.Share != nil {
		m.core.SetObserver(o.Share)
	}
	return m
}

func (m *Model) setTheme(dark bool) { m.th = theme.New(dark, m.opts.NoColor) }

// Init connects to the server and asks the terminal for its background.
func (m *Model) Init() tea.Cmd {
	m.tr.info("connecting to " + m.server + "…")
	cmds := []tea.Cmd{connect(m.opts.Server), shareNext(m.opts.Share)}
	if m.opts.Theme == "" {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// Close ends the server (its whole process group) and waits for the
// session's background writes; call it after the program returns.
func (m *Model) Close() {
	if m.conn != nil {
		m.conn.Close()
	}
	m.core.Close()
}

// Transcript is what the session showed, as plain text, for the
// scrollback once the full screen is gone.
func (m *Model) Transcript() string { return m.tr.plain() }

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		return m, nil
	case tea.BackgroundColorMsg:
		m.setTheme(msg.IsDark())
		return m, nil
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	case tea.PasteMsg:
		return m, m.onPaste(msg)
	case connectedMsg:
		return m, m.onConnected(msg)
	case listedMsg:
		m.onListed(msg)
		return m, nil
	case eventMsg:
		return m, m.onEvent(msg)
	case callDoneMsg:
		return m, m.onCallDone(msg)
	case preparedMsg:
		return m, m.changes(m.core.Prepared(msg.q, msg.prep))
	case shareMsg:
		return m, m.onShare(msg)
	case afterMsg:
		return m, m.changes(m.core.Finish(msg.p.Q, msg.out, msg.notes))
	case openedMsg:
		return m, m.opened(msg)
	case focus.TickMsg:
		return m, m.arb.Idle(m.front() != nil)
	case runTickMsg:
		if m.call == msg.run {
			return m, runTick(msg.run)
		}
		return m, nil
	case ageTickMsg:
		if m.showFlows {
			return m, ageTick()
		}
		return m, nil
	}
	if f := m.front(); f != nil && m.arb.Focused {
		return m, m.modalUpdate(f, msg)
	}
	switch m.pane {
	case paneArgs:
		return m, m.args.update(msg)
	case paneEditor:
		return m, m.editor.update(msg)
	}
	return m, nil
}

// quit ends the program; the server is ended by Close.
func (m *Model) quit() tea.Cmd {
	m.quitting = true
	if m.call != nil {
		m.call.cancel()
	}
	return tea.Quit
}

// background is the context of the session's I/O.
var background = context.Background()
