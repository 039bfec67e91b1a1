package fullscreen

import (
	"encoding/json"
	"os/exec"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/ui"
	"github.com/elicit-dev/elicit/ui/internal/share"
	"github.com/elicit-dev/elicit/urlconsent"
)

// Options configure the full screen. Agent is the ACP agent of New; the
// other constructors (NewMCP, NewAttach) take what they talk to apart.
type Options struct {
	Agent     acpconn.Config
	Opener    urlconsent.Opener // nil = the system browser
	AutoRetry bool              // retry a prompt (a call) that needed URL elicitations without asking
	// Answers (--answers) answers every form without asking: the file's
	// value for each key, then the defaults; a form it cannot fill is
	// cancelled, with the reason in the transcript.
	Answers map[string]json.RawMessage
	Memory  ui.Memory // hooks, history, audit log
	Notify  Notify    // when a question rings the bell (default: unfocused)
	// Theme is "dark" or "light" to choose the palette, else it follows
	// the terminal's background.
	Theme   string
	NoColor bool
	Now     func() time.Time // nil = time.Now
	// Width and Height are the terminal's size when known before the
	// program starts (0: 80x24 until the first resize), so the first
	// frame, drawn at once, is drawn at the right size.
	Width, Height int
	// Mode and Model (--mode, --model) are set once the session opens: a
	// choice's id, or its name.
	Mode, Model string
	// Resume (--resume) takes up a past session: ResumeID, or the most
	// recent in the directory when it is "".
	Resume   bool
	ResumeID string
	// APIKeyEnv (--api-key-env, or the agent's api_key_env) names the
	// environment variable holding an API key: when the agent wants
	// sign-in and offers an api-key method, it is used without asking (as
	// env_var methods whose variables are set are).
	APIKeyEnv string
	// Exec runs a terminal sign-in command in the user's terminal; nil =
	// tea.ExecProcess (tests run it directly).
	Exec func(*exec.Cmd, tea.ExecCallback) tea.Cmd
	// Share (elicit serve, the user's inbox; New and NewMCP) shares the
	// session's questions with the clients of an AHP host: this screen is
	// one client among them.
	Share *share.Share
	// ShareLine is shown in the transcript at start (how to attach).
	ShareLine string
	// Grace (NewAttach, where a question takes the keys as it comes) is
	// how long a new question ignores keys: 0 the widgets' own default,
	// negative none (tests).
	Grace time.Duration
	// TypingWindow is how long after a key a question that comes up
	// still docks instead of taking the keys; 0 is focus.TypingWindow (a
	// second).
	TypingWindow time.Duration
}

// Model is the root model: the one full screen, whatever it talks to.
// It draws the transcript, the questions (the modal queue, under the
// input arbiter), the pending URL flows and the status bar, and keeps the
// session core; the source's panel (src: an ACP agent, an MCP server, an
// AHP host) is a child it calls for the rest. Children are plain structs;
// no I/O happens in Update: anything that talks to the source runs in a
// tea.Cmd.
type Model struct {
	opts Options
	now  func() time.Time
	th   *theme.Theme
	md   *markdown
	tr   *transcript
	keys keyMap
	arb  arbiter
	core *session.Core

	src source // what the screen talks to

	name, version string // who asks: the agent's, server's or host's name, and its version
	program       string // "elicit", "elicit mcp", "elicit attach": the window's title, before the name
	peer          string // what notes call the source: "agent", "server", "host"
	// drafts carries a form's drafts to and from other clients (elicit
	// serve, elicit attach); nil when forms are not shared.
	drafts sharer
	// peers counts the other clients attached to the shared session (the
	// inbox included): a form shows its sharing keys while there are any.
	peers int
	// direct says nothing else on the screen takes keys (attach): a
	// question at the front has them at once, and grace is its widgets'
	// own grace period (noGrace where the input arbiter rules).
	direct bool
	grace  time.Duration
	// hostSays: the source says what was decided, on the word of the one
	// that decides (attach: the host's echo), not the core's notes.
	hostSays bool

	width, height int
	spin          spinner.Model
	spinning      bool // a spinner tick is on its way

	suspended bool      // Ctrl+Z was pressed, and fg has not come back yet
	overSSH   bool      // over SSH: links are offered as QR codes (urlconsent.Remote)
	resumedAt time.Time // the last return from Ctrl+Z (fg); zero before one
	armed     armed     // a Ctrl+C waiting for its second press

	queue        queue
	showFlows    bool
	flowSel      int
	scroll       int
	flushing     bool
	eventsAt     time.Time // when the source's last events came (see busyFor)
	quietPending bool      // a quietMsg is on its way
	quitting     bool
	blurred      bool // the terminal reported it lost focus

	waitNoticed modal // the docked question the user was told about
}

// newRoot returns the root of program with the core's policy; the
// constructor gives it its source.
func newRoot(o Options, program string, pol session.Policy) *Model {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	if o.Opener == nil {
		o.Opener = urlconsent.BrowserOpener{}
	}
	m := &Model{opts: o, now: now, width: 80, height: 24, keys: newKeyMap(), overSSH: urlconsent.Remote(nil), grace: noGrace}
	m.arb = arbiter{Now: now, Window: o.TypingWindow}
	pol.Person, pol.Answers, pol.AutoRetry = true, o.Answers, o.AutoRetry
	pol.FlowsKey = m.keys.Flows.Help().Key
	m.core = session.New(nil, pol, now)
	m.program, m.peer = program, pol.Peer
	if m.peer == "" {
		m.peer = "agent"
	}
	if o.Width > 0 && o.Height > 0 {
		m.width, m.height = o.Width, o.Height
	}
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m.setTheme(o.Theme != "light")
	if o.Share != nil { // elicit serve, the user's inbox (share.go)
		m.core.SetObserver(o.Share)
		m.drafts = o.Share
		if o.ShareLine != "" {
			m.tr.info(o.ShareLine)
		}
	}
	return m
}

func (m *Model) setTheme(isDark bool) {
	m.th = theme.New(isDark, m.opts.NoColor)
	m.md = newMarkdown(isDark, m.opts.NoColor)
	if m.tr == nil {
		m.tr = newTranscript(m.md, m.th)
		m.tr.now = m.now
	} else {
		m.tr.md, m.tr.th = m.md, m.th
		for _, it := range m.tr.items {
			it.dirty = true
		}
	}
	m.spin.Style = m.th.Accent
}

// Init starts the source and asks the terminal for its background colour.
func (m *Model) Init() tea.Cmd {
	m.spinning = true
	return tea.Batch(m.src.connect(), tea.RequestBackgroundColor, m.spin.Tick, shareNext(m.opts.Share))
}

// Update handles one message. It only changes state and returns commands.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if m.src.busy() && !m.spinning {
		m.spinning = true
		cmd = tea.Batch(cmd, m.spin.Tick)
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		cmd, _ := m.src.handle(msg) // its own widths
		return cmd
	case tea.BackgroundColorMsg:
		if m.opts.Theme == "dark" || m.opts.Theme == "light" {
			return nil // the config file chose
		}
		m.setTheme(msg.IsDark())
		cmd, _ := m.src.handle(msg) // its own styles
		return cmd
	case quietMsg:
		// Once the source has been quiet for busyFor, this message's View
		// gives the blocks drawn plain during a flood their markdown.
		if wait := busyFor - m.now().Sub(m.eventsAt); wait > 0 {
			return quietLater(wait)
		}
		m.quietPending = false
		return nil
	case flushMsg:
		// The interval is over: the next View draws the streaming message
		// afresh. Another interval starts with the next events.
		m.flushing = false
		return nil
	case spinner.TickMsg:
		if !m.src.busy() {
			m.spinning = false // Update starts it again when it is wanted
			return nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		m.tr.tick() // running commands' clocks
		return cmd
	case cmdErrMsg:
		m.tr.notice(msg.what+": "+msg.err.Error(), true)
		return nil
	case openedMsg:
		return m.opened(msg)
	case exportedMsg:
		return m.exported(msg)
	case shareMsg:
		return m.onShare(msg)
	case shareTypedMsg:
		m.shareTyped(msg)
		return nil
	case preparedMsg:
		return m.changes(m.core.Prepared(msg.q, msg.prep))
	case rulesMsg:
		return m.changes(session.Changes{Notes: msg.notes})
	case afterMsg:
		return m.changes(m.core.Finish(msg.p.Q, msg.out, msg.notes))
	case dockTickMsg:
		return m.arb.Idle(m.queue.front() != nil)
	case tea.ResumeMsg:
		return m.resumed()
	case tea.FocusMsg:
		m.blurred = false
		return nil
	case tea.BlurMsg:
		m.blurred = true
		return nil
	case ageTickMsg:
		if m.showFlows {
			return ageTick()
		}
		return nil
	case disarmMsg:
		m.disarm(msg)
		return nil
	case closedMsg:
		return tea.Quit
	case tea.KeyPressMsg:
		return m.onKey(msg)
	case tea.PasteMsg:
		if f := m.queue.front(); f != nil && m.arb.Focused {
			return m.toModal(f, msg)
		}
		m.arb.Typed()
		return m.src.rest(msg)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.scroll += 3
		case tea.MouseWheelDown:
			m.scroll = max(0, m.scroll-3)
		}
		return nil
	}
	if cmd, ok := m.src.handle(msg); ok {
		return cmd
	}
	if f := m.queue.front(); f != nil && m.arb.Focused {
		return m.toModal(f, msg)
	}
	return m.src.rest(msg)
}

// Close ends the source (an agent's or a server's whole process group)
// if it still runs, and waits for the session's background writes. cmd
// calls it after the program ends, however it ended.
func (m *Model) Close() {
	m.src.closeSource()
	m.core.Close()
}
