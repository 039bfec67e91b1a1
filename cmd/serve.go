package cmd

import (
	"errors"
	"fmt"
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ui/fullscreen"
	"github.com/elicit-dev/elicit/ui/headless"
	"github.com/elicit-dev/elicit/ui/serve"
)

const serveExample = `
# The demo agent, shared; the line to attach with is printed on stderr:
elicit serve

# Any agent, the token kept in a file of mode 0600 across restarts:
elicit serve --token-file ~/.elicit-token -- claude-agent-acp

# One prompt without a screen: its questions wait for attached clients
elicit serve -p "/form" --token-file tok
`

// newServeCommand is `elicit serve [AGENT] [-- COMMAND...]`: an agent's
// session published as an Agent Host Protocol host, this terminal one of
// its clients.
func newServeCommand(a *app) *cobra.Command {
	var o sessionOptions
	var so serve.Options
	cmd := &cobra.Command{
		Use:   "serve [AGENT] [-- COMMAND...]",
		Short: "Run an agent and share its questions with elicit attach clients",
		Long: "Runs an ACP agent (a named one, the command after --, or the demo agent) and publishes its session as an " +
			"Agent Host Protocol host over WebSocket: every form and URL the agent asks appears in each attached client, " +
			"drafts are shared as they are typed, and the first answer wins. This terminal is one of the clients (the full " +
			"screen); with -p there is none, and the prompt's questions wait for the attached clients. Permissions stay here. " +
			"The exact attach command is printed on stderr: it names the token's file (mode 0600; without --token-file, a new " +
			"one removed when serving ends), never the token, which a command line would show every local user.\n\n" +
			"Loopback only unless --listen names another address with --tls-cert and --tls-key (or --allow-remote); " +
			"a random token is required unless --insecure-no-token. A plain ws:// host takes connections to a loopback " +
			"address or localhost only, so a web page on a name that resolves here cannot reach it; --allow-host adds a name.",
		Example:           serveExample,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeAgents(a, &o.files.configFile),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.start.settle(cmd.Flags())
			req, err := newSessionRequest(cmd, o, args)
			if err != nil {
				return err
			}
			return a.exit(a.runServe(req, so))
		},
	}
	f := cmd.Flags()
	f.StringVar(&so.Listen, "listen", "127.0.0.1:0", "the `ADDR` to listen on (host:port)")
	f.StringVar(&so.TokenFile, "token-file", "", "read the token from `FILE` (yours alone: mode 0600), or write a new one there; default: a new file, removed when serving ends")
	f.StringSliceVar(&so.AllowHosts, "allow-host", nil, "take connections that reach this host by `NAME` (besides loopback addresses and localhost)")
	f.BoolVar(&so.Insecure, "insecure-no-token", false, "serve without a token: anyone who reaches the port can answer")
	f.BoolVar(&so.AllowRemote, "allow-remote", false, "allow a non-loopback --listen without TLS (token and answers in clear text)")
	f.StringVar(&so.TLSCert, "tls-cert", "", "serve wss:// with this certificate `FILE`")
	f.StringVar(&so.TLSKey, "tls-key", "", "the certificate's key `FILE`")
	addPromptFlags(cmd, &o.prompt)
	addStartFlags(cmd, &o.start)
	f.BoolVar(&o.answers.approve, "approve", false, "with -p: allow the agent's tool calls and file writes (permissions are never shared)")
	inGroup(f, groupAnswers, "approve")
	addAgentFlags(cmd, &o.agent)
	addAllowWriteFlag(cmd, &o.agent)
	addPolicyFlag(cmd, &o.agent)
	addRemoteFlags(cmd, &o.agent.remote)
	addFileFlags(cmd, &o.files)
	addInboxFlag(cmd, &o.files)
	return cmd
}

// runServe starts the agent behind a host and runs -p or the full screen.
func (a *app) runServe(req sessionRequest, so serve.Options) int {
	o := req.opts
	p, code := a.prepare(req, "elicit serve")
	if p == nil {
		return code
	}
	defer p.close()
	st, cfg, keyEnv, stderr, start := p.st, p.cfg, p.keyEnv, p.stderr, o.start
	tty := isTerminal(a.stdin) && isTerminal(a.stdout)
	if o.prompt.prompt == "" && !tty {
		return p.fail(exitUsage, errors.New("no terminal: use -p TEXT, and answer from elicit attach"))
	}
	so.Title, so.Version = st.agent.name, readVersion().short()
	so.Inbox = inboxMeta(st, st.agent.name, cfg.Dir, "serve")
	sv, err := serve.Start(so)
	if err != nil {
		return p.fail(exitUsage, err)
	}
	defer sv.Close()
	if sv.InboxErr != nil {
		inboxWarning(stderr, sv.InboxErr)
	}
	line := attachLine(sv)
	fmt.Fprintln(stderr, line)
	if o.prompt.prompt != "" {
		sig := endOnSignal()
		code := headless.Run(headless.Options{Agent: cfg, Prompt: o.prompt.prompt, Approve: o.answers.approve, Timeout: o.prompt.timeout,
			Mode: start.mode, Model: start.model, Resume: start.resumeSet, ResumeID: start.resume, APIKeyEnv: keyEnv,
			Memory: st.memory, Stdout: textOut(a.stdout), Stderr: stderr, Remote: sv.Remote()})
		return p.signalled(sig.stop(), code)
	}
	return a.serveScreen(cfg, st, sv, "shared: "+line, start, keyEnv)
}

// serveScreen runs the full screen as one client of the host.
func (a *app) serveScreen(cfg acpconn.Config, st *setup, sv *serve.Served, line string, start startOptions, keyEnv string) int {
	w, h, _ := term.GetSize(os.Stdout.Fd())
	m := fullscreen.New(fullscreen.Options{Agent: cfg, NoColor: noColor(), Memory: st.memory, Notify: fullscreen.Notify(st.settings.Notify),
		Theme: string(st.settings.Theme), Width: w, Height: h, Share: sv.Share, ShareLine: line,
		Mode: start.mode, Model: start.model, Resume: start.resumeSet, ResumeID: start.resume, APIKeyEnv: keyEnv})
	return a.endSession(m)
}

// attachLine is the exact command that attaches to sv. It names the
// token's file, never the token: a command line is in every local user's
// ps.
func attachLine(sv *serve.Served) string {
	if sv.TokenFile == "" {
		return "elicit attach " + sv.Server.URL()
	}
	return "elicit attach " + sv.Server.URL() + " --token-file " + shellWord(sv.TokenFile)
}
