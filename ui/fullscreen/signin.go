package fullscreen

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"

	"github.com/elicit-dev/elicit/ui/internal/opener"
	"github.com/elicit-dev/elicit/ui/internal/say"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/theme"
)

// signInModal lists the agent's sign-in methods with the agent's own
// reason. It pops up unasked, so it has no letter keys. Esc quits when no
// session exists yet, else it dismisses.
type signInModal struct{ choiceModal }

// The sign-in dialog's answers: a method, starting the agent again (for
// an agent that offers no method: the user signed in some other way), or
// Esc (which quits when no session exists yet).
type (
	signInAct        struct{ method acpconn.AuthMethod }
	signInRetryAct   struct{}
	signInDismissAct struct{ quits bool }
)

func newSignInModal(agent, reason string, methods []acpconn.AuthMethod, escQuits bool, th *theme.Theme) *signInModal {
	body := agent + " asks you to sign in"
	if reason != "" {
		body += ": " + reason
	}
	esc := "esc dismisses"
	if escQuits {
		esc = "esc quits"
	}
	if len(methods) == 0 {
		body += "\n\nIt offers no way to sign in from here. Sign in as its documentation says, then start it again (" + esc + ")."
	} else {
		body += "\n\nPick a method (" + esc + "):"
	}
	s := &signInModal{choiceModal{title: "Sign in", who: agent, asks: "you to sign in", th: th, body: body, esc: signInDismissAct{escQuits}}}
	if escQuits {
		s.escHelp = "quit"
	}
	for _, m := range methods {
		s.choices = append(s.choices, choice{"", say.MethodLabel(m), signInAct{m}})
	}
	s.choices = append(s.choices, choice{"", "start the agent again (signed in some other way)", signInRetryAct{}})
	return s
}

// loginDoneMsg reports a terminal sign-in command that ran.
type loginDoneMsg struct {
	method acpconn.AuthMethod
	line   string // the command line that ran
	err    error
}

// signInMethods are the ways to sign in: the agent's methods, else those
// in its error, else a command its message names ("run `x login` in your
// terminal").
func (m *agentPanel) signInMethods(err error) []acpconn.AuthMethod {
	argv := m.opts.Agent.Argv
	var ms []acpconn.AuthMethod
	if m.initialized() {
		ms = m.conn.AuthMethods()
	}
	if len(ms) == 0 {
		ms = acpconn.AuthMethodsIn(err, argv)
	}
	if len(ms) == 0 {
		if tm, ok := acpconn.TextMethod(acpconn.AgentReason(err), argv); ok {
			ms = []acpconn.AuthMethod{tm}
		}
	}
	return ms
}

// offerSignIn shows the sign-in dialog for an agent that answered -32000;
// it never signs in by itself, so nothing loops.
func (m *agentPanel) offerSignIn(err error) tea.Cmd {
	if m.signingIn() {
		return nil
	}
	reason := acpconn.AgentReason(err)
	if reason == "" && err != nil {
		reason = sanitize.Line(err.Error())
	}
	m.tr.notice(m.name+" asks you to sign in: "+reason, true)
	return m.push(newSignInModal(m.name, reason, m.signInMethods(err), m.connState != connReady, m.th), false)
}

// signInDismissed acts on Esc at the sign-in dialog.
func (m *agentPanel) signInDismissed(quits bool) tea.Cmd {
	if quits {
		return m.quit()
	}
	m.tr.info("sign-in dismissed; the agent will ask again when it needs it")
	return nil
}

// signIn acts on a sign-in method the user picked.
func (m *agentPanel) signIn(pick acpconn.AuthMethod) tea.Cmd {
	switch pick.Kind {
	case acpconn.AuthTerminal:
		if pick.Guess {
			return m.push(newLoginEditModal(pick, m.th), true)
		}
		return m.runLogin(pick, "")
	case acpconn.AuthEnvVar:
		if len(pick.Missing(m.agentConfig().Env)) == 0 {
			t := m.afterSignIn(m.conn != nil && m.connState != connGone)
			t.Method = pick.ID
			return m.authOrReconnect(t)
		}
		return m.push(newSecretModal(pick, m.th), true)
	case acpconn.AuthAPIKey:
		return m.push(newSecretModal(pick, m.th), true)
	}
	t := m.afterSignIn(true)
	t.Method = pick.ID
	return m.authOrReconnect(t)
}

// secretDone acts on typed sign-in values: an env_var method's variables
// restart the agent with them in its environment (kept in memory only, for
// later restarts); an api-key goes in authenticate's _meta.
func (m *agentPanel) secretDone(method acpconn.AuthMethod, vals []string) tea.Cmd {
	if method.Kind == acpconn.AuthAPIKey {
		t := m.afterSignIn(true)
		t.Method, t.Key = method.ID, vals[0]
		return m.authOrReconnect(t)
	}
	for i, v := range method.Vars {
		m.setEnv(v.Name, vals[i])
	}
	t := m.afterSignIn(false)
	t.Method = method.ID
	return m.reconnectTo(t, "restarting the agent with "+say.VarNames(method)+"…")
}

// authOrReconnect authenticates on the running agent, or starts one first.
func (m *agentPanel) authOrReconnect(t opener.Target) tea.Cmd {
	if m.initialized() && m.connState != connGone {
		m.tr.info("signing in…")
		return authenticate(m.gen, m.conn, m.withStart(t))
	}
	t.Keep = false
	return m.reconnectTo(t, "starting the agent to sign in…")
}

// afterSignIn is what to open once signed in: the original target while
// starting; during a session, the same session (kept on the same agent,
// else resumed when the agent can, else a new one).
func (m *agentPanel) afterSignIn(sameProcess bool) opener.Target {
	if m.session.ID == "" {
		return opener.Target{Resume: m.last.Resume, ID: m.last.ID}
	}
	if sameProcess {
		return opener.Target{Keep: true}
	}
	if m.conn != nil && m.conn.SessionCaps().CanReopen() {
		return opener.Target{Resume: true, ID: m.session.ID}
	}
	return opener.Target{}
}

// withStart is t as the opener takes it here: with the history replayed
// when a past session is taken up (the transcript shows it), sign-in
// without asking where the environment or --api-key-env allows it, and
// --mode and --model until a session has opened once.
func (m *agentPanel) withStart(t opener.Target) opener.Target {
	t.Replay = true
	t.Auto = opener.Auto{Env: m.agentEnv(), KeyEnv: m.opts.APIKeyEnv}
	if !m.flagsDone {
		t.Mode, t.Model = m.opts.Mode, m.opts.Model
	}
	return t
}

// agentEnv is the environment the agent runs with: its configuration's
// (nil: elicit's own) and the variables typed for sign-in.
func (m *agentPanel) agentEnv() []string {
	env := m.opts.Agent.Env
	if len(m.extraEnv) == 0 {
		return env
	}
	if env == nil {
		env = os.Environ()
	}
	return append(append([]string(nil), env...), m.extraEnv...)
}

// runLogin suspends the full screen and runs a terminal method's command
// in the user's terminal: the agent's command line with the method's
// arguments and environment, or the line the user edited it into (run by
// sh). The agent is started again afterwards.
func (m *agentPanel) runLogin(am acpconn.AuthMethod, edited string) tea.Cmd {
	if len(am.Command) == 0 && edited == "" {
		m.tr.notice("this sign-in method names no command", true)
		return m.offerSignIn(nil)
	}
	cfg := m.agentConfig()
	var cmd *exec.Cmd
	line := am.CommandLine()
	if edited != "" && edited != line {
		cmd, line = exec.Command("sh", "-c", edited), sanitize.Line(edited)
	} else {
		cmd = exec.Command(am.Command[0], am.Command[1:]...)
	}
	cmd.Dir = cfg.Dir
	cmd.Env = append(cfg.Env, am.EnvList()...)
	m.tr.info("running " + line + " in the terminal…")
	// The sign-in is the user's own command: the browser it may open
	// through a launcher that detaches stays when elicit ends its strays.
	kept := procgroup.Default.KeepUserSessions()
	return m.exec(cmd, func(err error) tea.Msg {
		kept()
		return loginDoneMsg{method: am, line: line, err: err}
	})
}

func (m *agentPanel) onLoginDone(msg loginDoneMsg) tea.Cmd {
	if msg.err != nil {
		m.tr.notice(fmt.Sprintf("the sign-in command %s failed: %s", msg.line, sanitize.Line(msg.err.Error())), true)
		return m.push(newSignInModal(m.name, "the last attempt failed", m.signInMethods(nil), m.session.ID == "", m.th), false)
	}
	return m.reconnectTo(m.afterSignIn(false), "signed in with "+msg.method.Name+"; starting the agent again…")
}

// agentConfig is the agent's configuration with the sign-in variables
// typed this run.
func (m *agentPanel) agentConfig() acpconn.Config {
	cfg := m.opts.Agent
	// Start-up progress for the status bar: what it waits for, since when.
	m.startedAt = m.now()
	stage := &atomic.Value{}
	stage.Store("starting")
	m.stage = stage
	cfg.Progress = func(p acpconn.StartProgress) { stage.Store("waiting for " + p.Stage) }
	if len(m.extraEnv) > 0 {
		base := cfg.Env
		if base == nil {
			base = os.Environ()
		}
		cfg.Env = append(append([]string(nil), base...), m.extraEnv...)
	} else if cfg.Env == nil {
		cfg.Env = os.Environ()
	}
	return cfg
}

// setEnv records a sign-in variable for this run (never on disk).
func (m *agentPanel) setEnv(name, value string) {
	for i, kv := range m.extraEnv {
		if strings.HasPrefix(kv, name+"=") {
			m.extraEnv[i] = name + "=" + value
			return
		}
	}
	m.extraEnv = append(m.extraEnv, name+"="+value)
}

// reconnectTo ends the agent and starts it again, opening t.
func (m *agentPanel) reconnectTo(t opener.Target, why string) tea.Cmd {
	old := m.conn
	m.gen++
	m.conn, m.exited, m.pumping = nil, nil, nil
	m.connState = connStarting
	m.last = t
	t.Keep = false
	m.tr.info(why)
	return reconnect(m.gen, old, m.agentConfig(), m.withStart(t))
}

// signingIn says whether a sign-in dialog is open.
func (m *agentPanel) signingIn() bool {
	return waits[*signInModal](&m.queue)
}
