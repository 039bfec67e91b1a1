package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/charmbracelet/x/term"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/safefile"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/ui/fullscreen"
	"github.com/elicit-dev/elicit/ui/headless"
	"github.com/elicit-dev/elicit/ui/line"
)

// agentConfig is the agent to run: agent's command, or the demo agent;
// with --log, closeLog closes the trace file. code is non-zero on a bad
// flag.
func agentConfig(o agentOptions, agent resolvedAgent, stderr io.Writer) (cfg acpconn.Config, closeLog func(), code int) {
	closeLog = func() {}
	argv := agent.argv
	if len(argv) == 0 {
		self, err := os.Executable()
		if err != nil {
			fmt.Fprintln(stderr, "elicit:", err)
			return cfg, closeLog, exitFailed
		}
		argv = []string{self, demoAgentCommand}
	}
	dir := o.cwd
	if dir == "" {
		dir = agent.dir
	}
	cfg = acpconn.Config{Argv: argv, Env: agent.env, Dir: dir, NoForm: o.noForm, NoURL: o.noURL,
		ClientVersion: readVersion().short(), StartTimeout: o.startTimeout, AllowWrites: o.allowWrites, MCPServers: agent.mcp}
	// A remote agent (--url, or a named agent's url) instead of a command;
	// --url with an agent command or name is a usage error.
	named := len(agent.argv) > 0 || agent.remote.url != "" || agent.name != "demo"
	if err := o.remote.apply(&cfg, agent.remote, o.remote.url != "" && named); err != nil {
		fmt.Fprintln(stderr, "elicit:", err)
		return cfg, closeLog, exitUsage
	}
	if o.logFile != "" {
		f, err := openTrace(o.logFile)
		if err != nil {
			fmt.Fprintln(stderr, "elicit: --log:", err)
			return cfg, closeLog, exitUsage
		}
		cfg.Log, closeLog = f, func() { f.Close() }
	}
	return cfg, closeLog, exitOK
}

// openTrace opens the --log file of every command (sessions, serve, mcp):
// appended to, never replaced; never through a symbolic link nor to a FIFO
// or a device; made with mode 0600 (it holds the conversation).
func openTrace(path string) (*os.File, error) { return safefile.Append(path, 0o600) }

// readTopDomains reads the --top-domains files: more well-known domains
// for the lookalike checks (newSetup's analyzer, elicit url's).
func readTopDomains(files []string) ([]string, error) {
	var all []string
	for _, f := range files {
		d, err := urlcheck.ReadTopDomains(f)
		if err != nil {
			return nil, err
		}
		all = append(all, d...)
	}
	return all, nil
}

// runSession runs a session with an agent in the front end that fits:
// -p (or no terminal), the line session, or the full screen. It returns
// the exit status.
func (a *app) runSession(req sessionRequest) int {
	o := req.opts
	p, code := a.prepare(req, "elicit")
	if p == nil {
		return code
	}
	defer p.close()
	st, cfg, keyEnv, stderr, start := p.st, p.cfg, p.keyEnv, p.stderr, o.start
	answers, err := o.answers.load()
	if err != nil {
		return p.fail(exitUsage, answersError(o.answers.answers, err))
	}
	tty := isTerminal(a.stdin) && isTerminal(a.stdout)
	if o.prompt.prompt != "" || !tty {
		if o.prompt.prompt == "" {
			return p.fail(exitUsage, errors.New("no terminal: use -p TEXT to send one prompt"))
		}
		sig := endOnSignal()
		code := headless.Run(headless.Options{Agent: cfg, Prompt: o.prompt.prompt, Answers: answers, AcceptDefaults: o.answers.acceptDefaults,
			Approve: o.answers.approve, Timeout: o.prompt.timeout, Mode: start.mode, Model: start.model, Resume: start.resumeSet, ResumeID: start.resume,
			APIKeyEnv: keyEnv, Memory: st.memory, Stdout: textOut(a.stdout), Stderr: stderr})
		return p.signalled(sig.stop(), code)
	}
	screen := req.accessible
	if !screen && dumbTerminal() {
		fmt.Fprintln(stderr, "elicit: TERM="+os.Getenv("TERM")+" cannot draw the full screen; using the line session (--accessible)")
		screen = true
	}
	if screen {
		// SIGINT is the accessible session's own (it cancels a turn).
		trap := endOnSignal(syscall.SIGTERM, syscall.SIGHUP)
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		sv := publishSession(st, cfg, "session", stderr)
		defer sv.Close()
		code := line.Run(line.Options{Agent: cfg, In: a.stdin, Out: textOut(a.stdout), Answers: answers, AutoRetry: o.screen.autoRetry, Signals: sig, Memory: st.memory,
			Mode: start.mode, Model: start.model, Resume: start.resumeSet, ResumeID: start.resume, APIKeyEnv: keyEnv, Share: sv.ShareOrNil()})
		signal.Stop(sig)
		return p.signalled(trap.stop(), code)
	}
	return a.fullScreen(cfg, req, st, answers, keyEnv)
}

// apiKeyEnv is the variable holding the agent's API key: --api-key-env,
// else the config's api_key_env. The flag's must be set (in elicit's
// environment, or the agent's env table); the config's may be unset, for
// an agent signed in already. The key is read only when the agent asks.
func apiKeyEnv(flag string, agent resolvedAgent) (string, error) {
	if flag == "" {
		return agent.apiKeyEnv, nil
	}
	if !config.ValidEnvName(flag) {
		// The value is not repeated: it may be the key itself.
		return "", errors.New("--api-key-env takes the name of the environment variable that holds the key (letters, digits, '_'), never the key")
	}
	env := agent.env
	if env == nil {
		env = os.Environ()
	}
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == flag && v != "" {
			return flag, nil
		}
	}
	return "", fmt.Errorf("--api-key-env %s: %s is not set in the environment", flag, flag)
}

// fullScreen runs the full-screen front end.
func (a *app) fullScreen(cfg acpconn.Config, req sessionRequest, st *setup, answers map[string]json.RawMessage, keyEnv string) int {
	o := req.opts
	w, h, _ := term.GetSize(os.Stdout.Fd()) // the first frame is drawn at once, at this size
	sv := publishSession(st, cfg, "session", textOut(a.stderr))
	defer sv.Close()
	m := fullscreen.New(fullscreen.Options{Agent: cfg, AutoRetry: o.screen.autoRetry, NoColor: noColor(), Answers: answers, Memory: st.memory,
		Notify: fullscreen.Notify(st.settings.Notify), Theme: string(st.settings.Theme), Mode: o.start.mode, Model: o.start.model,
		Resume: o.start.resumeSet, ResumeID: o.start.resume, APIKeyEnv: keyEnv, Width: w, Height: h, Share: sv.ShareOrNil()})
	return a.endSession(m)
}

// endSession runs a session's full screen (elicit, elicit serve) to its
// end: however the program ended, its agent ends (and Main's endAll ends
// whatever else it started), and the conversation, which the alternate
// screen took with it, is printed to the normal screen so it stays in the
// scrollback.
func (a *app) endSession(m *fullscreen.Model) int {
	_, err := runScreen(newScreenProgram(m), a.stderr) // a closed terminal ends the program
	m.Close()
	if werr := m.WriteTranscript(textOut(a.stdout)); werr != nil {
		fmt.Fprintln(textOut(a.stderr), "elicit: the conversation could not be printed whole:", werr)
	}
	if err != nil {
		fmt.Fprintln(textOut(a.stderr), "elicit:", err)
		return exitFailed
	}
	return exitOK
}
