package fullscreen

import (
	"encoding/json"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/elicit-dev/elicit/ui"

	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/ui/internal/opener"
	"github.com/elicit-dev/elicit/ui/internal/share"
	"github.com/elicit-dev/elicit/urlconsent"
)

// Options configure the session screen.
type Options struct {
	Agent     acpconn.Config
	Opener    urlconsent.Opener // nil = the system browser
	AutoRetry bool              // retry a prompt that needed URL elicitations without asking
	// Answers (--answers) answers every form without asking: the file's
	// value for each key, then the defaults; a form it cannot fill is
	// declined, with the reason in the transcript.
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
	// Share (elicit serve) shares the session's forms and URLs with the
	// clients of an AHP host: this screen is one client among them.
	Share *share.Share
	// ShareLine is shown in the transcript at start (how to attach).
	ShareLine string
}

// turnState is where the current prompt turn is.
type turnState int

const (
	turnIdle turnState = iota
	turnRunning
	turnCancelling
)

func (s turnState) String() string {
	switch s {
	case turnRunning:
		return "working"
	case turnCancelling:
		return "cancelling"
	}
	return "ready"
}

// connState is where the connection to the agent is.
type connState int

const (
	connStarting connState = iota
	connReady
	connGone
)

// Model is the root model. Children are plain structs it calls; no I/O
// happens in Update: anything that talks to the agent runs in a tea.Cmd.
// The session's rules (questions, flows, retries, limits) live in the
// core; the model renders it and maps keys to its actions.
type Model struct {
	opts Options
	now  func() time.Time
	th   *theme.Theme
	md   *markdown
	tr   *transcript
	keys keyMap
	arb  arbiter
	core *session.Core

	conn       *acpconn.Conn
	connState  connState
	gen        int           // the connection's generation: messages of a replaced one are stale
	pumping    *acpconn.Conn // the connection whose events are read
	inited     *acpconn.Conn // the connection that answered initialize
	last       opener.Target // what the last start opened
	extraEnv   []string      // sign-in variables typed this run, in memory only
	flagsDone  bool          // --mode and --model were applied
	lastPrompt string        // the last prompt sent, back in the input if sign-in is needed
	slash      slashState    // the slash-command completion list
	session    acpconn.SessionState
	agent      string
	version    string
	commands   []acpconn.Command
	title      string
	usage      acpconn.Usage

	width, height int
	input         textarea.Model
	spin          spinner.Model
	spinning      bool // a spinner tick is on its way

	hist        history
	turn        turnState
	turnStarted time.Time
	suspended   bool      // Ctrl+Z was pressed, and fg has not come back yet
	overSSH     bool      // over SSH: links are offered as QR codes (urlconsent.Remote)
	resumedAt   time.Time // the last return from Ctrl+Z (fg); zero before one
	armed       armed     // a Ctrl+C waiting for its second press

	queue        queue
	showFlows    bool
	flowSel      int
	scroll       int
	flushing     bool
	eventsAt     time.Time // when the agent's last events came (see busyFor)
	quietPending bool      // a quietMsg is on its way
	emptyPrompt  promptCache
	exited       *acpconn.AgentExited
	quitting     bool
	blurred      bool // the terminal reported it lost focus

	waitNoticed modal // the docked question the user was told about

	rc reconnecting // a lost remote connection being made again (reconnect.go)

	startedAt time.Time     // when the agent was (re)started
	stage     *atomic.Value // what start-up waits for (set from acpconn's goroutine)
}

// New returns the root model; Init starts the agent.
func New(o Options) *Model {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	if o.Opener == nil {
		o.Opener = urlconsent.BrowserOpener{}
	}
	// A person answers: every write no permission covered is asked.
	o.Agent.Writes = acpconn.WritesAsked
	if o.Agent.Remote != nil { // a lost connection is made again (reconnect.go)
		r := *o.Agent.Remote
		r.Reconnects = true
		o.Agent.Remote = &r
	}
	m := &Model{opts: o, now: now, width: 80, height: 24, keys: newKeyMap(), overSSH: urlconsent.Remote(nil)}
	m.arb = arbiter{Now: now}
	m.core = session.New(nil, session.Policy{Person: true, Answers: o.Answers, AutoRetry: o.AutoRetry, Reconnects: o.Agent.Remote != nil}, now)
	session.FlowsKeyName = m.keys.Flows.Help().Key
	if o.Share != nil {
		m.core.SetObserver(o.Share)
	}
	m.setTheme(o.Theme != "light")
	if o.Share != nil && o.ShareLine != "" {
		m.tr.info(o.ShareLine)
	}
	m.input = newInput(m.th)
	if o.Width > 0 && o.Height > 0 {
		m.width, m.height = o.Width, o.Height
		m.input.SetWidth(max(10, m.width-2))
	}
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m.agent = agentLabel(o.Agent.Argv)
	if o.Agent.Remote != nil {
		m.agent = remoteLabel(o.Agent.Remote.URL)
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

// Init starts the agent and asks the terminal for its background colour.
func (m *Model) Init() tea.Cmd {
	m.last = opener.Target{Resume: m.opts.Resume, ID: m.opts.ResumeID}
	m.spinning = true
	return tea.Batch(connect(m.gen, m.agentConfig(), m.withStart(m.last)), tea.RequestBackgroundColor, m.input.Focus(), m.spin.Tick, shareNext(m.opts.Share))
}

// Update handles one message. It only changes state and returns commands.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if m.spinWanted() && !m.spinning {
		m.spinning = true
		cmd = tea.Batch(cmd, m.spin.Tick)
	}
	return m, cmd
}

// spinWanted says whether the spinner should turn: while the agent starts,
// and while a turn runs with no question of the agent's waiting. A turn
// that waits for the user's answer is still, so an open question costs no
// frames (the screen changes only when something does).
func (m *Model) spinWanted() bool {
	if m.connState == connStarting {
		return true
	}
	return m.turn != turnIdle && !m.waitingForUser()
}

// waitingForUser says whether the agent waits on the user: a question of
// its own or a sign-in is open.
func (m *Model) waitingForUser() bool {
	return m.pendingRequests() > 0 || m.signingIn()
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.input.SetWidth(max(10, m.width-2))
		return nil
	case tea.BackgroundColorMsg:
		if m.opts.Theme == "dark" || m.opts.Theme == "light" {
			return nil // the config file chose
		}
		m.setTheme(msg.IsDark())
		m.input.SetStyles(inputStyles(m.th))
		return nil
	case attachedMsg:
		return m.onAttached(msg)
	case reconnectMsg:
		return m.onReconnect(msg)
	case expireMsg:
		return m.onExpire(msg)
	case connectedMsg:
		return m.onConnected(msg)
	case loginDoneMsg:
		return m.onLoginDone(msg)
	case sessionsMsg:
		return m.onSessions(msg)
	case stateMsg:
		m.onState(msg)
		return nil
	case eventsMsg:
		return m.onEvents(msg)
	case quietMsg:
		// Once the agent has been quiet for busyFor, this message's View
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
		if !m.spinWanted() {
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
	case closedMsg:
		return tea.Quit
	case tea.KeyPressMsg:
		return m.onKey(msg)
	case tea.PasteMsg:
		if f := m.queue.front(); f != nil && m.arb.Focused {
			return m.toModal(f, msg)
		}
		m.arb.Typed()
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.scroll += 3
		case tea.MouseWheelDown:
			m.scroll = max(0, m.scroll-3)
		}
		return nil
	}
	if f := m.queue.front(); f != nil && m.arb.Focused {
		return m.toModal(f, msg)
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return cmd
}

// exec runs a command in the user's terminal, the full screen suspended.
func (m *Model) exec(cmd *exec.Cmd, fn tea.ExecCallback) tea.Cmd {
	if m.opts.Exec != nil {
		return m.opts.Exec(cmd, fn)
	}
	return tea.ExecProcess(cmd, fn)
}
