package fullscreen

import (
	"os/exec"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui/internal/opener"
)

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

// agentPanel is the full screen's source when it talks to an ACP agent
// (elicit's session, elicit serve): the agent's process or remote
// connection, its start with sign-in and the session opener, restarts and
// reconnects, the session's modes, models and settings, and the prompt
// with its history and slash commands. It embeds the root it belongs to:
// its methods draw in the root's transcript and queue its dialogs there.
type agentPanel struct {
	*Model

	conn       *acpconn.Conn
	connState  connState
	replayTop  *item         // the first entry a session/load's replay drew, until the session is shown (replay.go)
	gen        int           // the connection's generation: messages of a replaced one are stale
	pumping    *acpconn.Conn // the connection whose events are read
	inited     *acpconn.Conn // the connection that answered initialize
	last       opener.Target // what the last start opened
	extraEnv   []string      // sign-in variables typed this run, in memory only
	flagsDone  bool          // --mode and --model were applied
	lastPrompt string        // the last prompt sent, back in the input if sign-in is needed
	retryNext  string        // a prompt to send again once the running turn ends (sendAgain)
	slash      slashState    // the slash-command completion list
	session    acpconn.SessionState
	commands   []acpconn.Command
	title      string // the session's title, as the agent names it
	usage      acpconn.Usage

	input       textarea.Model
	emptyPrompt promptCache
	hist        history
	turn        turnState
	turnStarted time.Time
	exited      *acpconn.AgentExited

	rc reconnecting // a lost remote connection being made again (reconnect.go)

	startedAt time.Time     // when the agent was (re)started
	stage     *atomic.Value // what start-up waits for (set from acpconn's goroutine)
}

// New returns the full screen of an ACP agent (o.Agent); Init starts the
// agent.
func New(o Options) *Model {
	// A person answers: every write no permission covered is asked.
	o.Agent.Writes = acpconn.WritesAsked
	if o.Agent.Remote != nil { // a lost connection is made again (reconnect.go)
		r := *o.Agent.Remote
		r.Reconnects = true
		o.Agent.Remote = &r
	}
	m := newRoot(o, "elicit", session.Policy{Reconnects: o.Agent.Remote != nil})
	a := &agentPanel{Model: m}
	m.src = a
	a.input = newInput(m.th)
	a.input.SetWidth(max(10, m.width-2))
	m.name = agentLabel(o.Agent.Argv)
	if o.Agent.Remote != nil {
		m.name = remoteLabel(o.Agent.Remote.URL)
	}
	return m
}

// connect starts the agent and opens the session (--resume, or new).
func (m *agentPanel) connect() tea.Cmd {
	m.last = opener.Target{Resume: m.opts.Resume, ID: m.opts.ResumeID}
	return tea.Batch(connect(m.gen, m.agentConfig(), m.withStart(m.last)), m.input.Focus())
}

// handle takes the agent's events and what its commands report.
func (m *agentPanel) handle(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.input.SetWidth(max(10, m.width-2))
	case tea.BackgroundColorMsg:
		m.input.SetStyles(inputStyles(m.th))
	case attachedMsg:
		return m.onAttached(msg), true
	case reconnectMsg:
		return m.onReconnect(msg), true
	case expireMsg:
		return m.onExpire(msg), true
	case connectedMsg:
		return m.onConnected(msg), true
	case loginDoneMsg:
		return m.onLoginDone(msg), true
	case sessionsMsg:
		return m.onSessions(msg), true
	case stateMsg:
		m.onState(msg)
	case eventsMsg:
		return m.onEvents(msg), true
	default:
		return nil, false
	}
	return nil, true
}

// rest goes to the prompt.
func (m *agentPanel) rest(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return cmd
}

// busy: the spinner turns while the agent starts, and while a turn runs
// with no question of the agent's waiting. A turn that waits for the
// user's answer is still, so an open question costs no frames (the screen
// changes only when something does).
func (m *agentPanel) busy() bool {
	if m.connState == connStarting {
		return true
	}
	return m.turn != turnIdle && !m.waitingForUser()
}

// waitingForUser says whether the agent waits on the user: a question of
// its own or a sign-in is open.
func (m *agentPanel) waitingForUser() bool {
	return m.pendingRequests() > 0 || m.signingIn()
}

// shutdown closes the session when the agent supports session/close,
// ends the agent's process group, then quits.
func (m *agentPanel) shutdown() tea.Cmd { return shutdown(m.conn) }

// closeSource ends the agent (its whole process group) if it still runs.
func (m *agentPanel) closeSource() {
	if m.conn != nil {
		m.conn.Close()
	}
}

// exec runs a command in the user's terminal, the full screen suspended.
func (m *agentPanel) exec(cmd *exec.Cmd, fn tea.ExecCallback) tea.Cmd {
	if m.opts.Exec != nil {
		return m.opts.Exec(cmd, fn)
	}
	return tea.ExecProcess(cmd, fn)
}
