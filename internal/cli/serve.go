package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/ui/fullscreen"
	"github.com/elicit-dev/elicit/ui/headless"
	"github.com/elicit-dev/elicit/ui/serve"
)

// exitCode ends a command with a status of its own (after it printed why).
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// runCommand runs a cobra command on args and returns the exit status.
func runCommand(cmd *cobra.Command, args []string) int {
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	var code exitCode
	switch {
	case err == nil:
		return 0
	case errors.As(err, &code):
		return int(code)
	}
	fmt.Fprintln(textOut(os.Stderr), "elicit "+cmd.Name()+":", err)
	return 2
}

// newServeCommand is `elicit serve`: an agent's session published as an
// Agent Host Protocol host, this terminal one of its clients.
func newServeCommand() *cobra.Command {
	var o options
	var so serve.Options
	cmd := &cobra.Command{
		Use:   "serve [flags] [-- AGENT COMMAND...]",
		Short: "run an agent and share its questions with `elicit attach` clients",
		Long: `Runs an ACP agent (default: the demo agent) and publishes its session as an Agent Host
Protocol host over WebSocket: every form and URL the agent asks appears in each attached
client, drafts are shared as they are typed, and the first answer wins. This terminal is
one of the clients (the full screen), or with -p none: the prompt's questions wait for the
attached clients. The exact attach command, token included, is printed on stderr.

Loopback only unless --listen names another address with --tls-cert/--tls-key (or
--allow-remote); a random token is required unless --insecure-no-token.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(o, so, args, cmd.ArgsLenAtDash() >= 0)
		},
	}
	f := cmd.Flags()
	f.StringVar(&so.Listen, "listen", "127.0.0.1:0", "the address to listen on (host:port)")
	f.StringVar(&so.TokenFile, "token-file", "", "read the token from `FILE`, or write a new one there (mode 0600)")
	f.BoolVar(&so.Insecure, "insecure-no-token", false, "serve without a token: anyone who can reach the port can answer")
	f.BoolVar(&so.AllowRemote, "allow-remote", false, "allow a non-loopback --listen without TLS (token and answers in clear text)")
	f.StringVar(&so.TLSCert, "tls-cert", "", "serve wss:// with this certificate `FILE`")
	f.StringVar(&so.TLSKey, "tls-key", "", "the certificate's key `FILE`")
	f.StringVarP(&o.prompt, "prompt", "p", "", "send one prompt, print the reply, exit when the turn ends; questions wait for attached clients")
	f.BoolVar(&o.approve, "approve", false, "with -p: allow the agent's tool calls and file writes (permissions are never shared)")
	f.DurationVar(&o.timeout, "timeout", headless.DefaultTimeout, "with -p: end the run after `DURATION`")
	f.StringVar(&o.cwd, "cwd", "", "the session's working directory")
	f.StringVar(&o.logFile, "log", "", "write a full protocol trace to `FILE`")
	f.StringVar(&o.configFile, "config", "", "read the configuration from `FILE`")
	f.BoolVar(&o.noHistory, "no-history", false, "neither remember nor prefill answers and sites")
	f.StringVar(&o.audit, "audit", "", "append every question and its answer to `FILE`")
	return cmd
}

func runServe(o options, so serve.Options, argv []string, explicit bool) error {
	file, _, err := loadConfig(o.configFile)
	if err != nil {
		return err
	}
	st, err := newSetup(o, file, argv, explicit)
	if err != nil {
		return err
	}
	defer st.close()
	defer procgroup.Default.Shutdown()
	cfg, closeLog, code := agentConfig(o, st.argv)
	if code != 0 {
		return exitCode(code)
	}
	cfg.Env = st.env
	defer closeLog()
	so.Title, so.Version = st.name, version()
	sv, err := serve.Start(so)
	if err != nil {
		return err
	}
	defer sv.Close()
	line := sv.AttachLine()
	fmt.Fprintln(os.Stderr, line)
	if o.prompt != "" {
		stop := procgroup.TrapSignals(context.Background(), func(os.Signal) { procgroup.Default.Shutdown() })
		code := headless.Run(headless.Options{Agent: cfg, Prompt: o.prompt, Approve: o.approve, Timeout: o.timeout,
			Memory: st.memory, Stdout: textOut(os.Stdout), Stderr: textOut(os.Stderr), Remote: sv.Remote()})
		stop()
		return codeErr(code)
	}
	if !term.IsTerminal(os.Stdin.Fd()) || !term.IsTerminal(os.Stdout.Fd()) {
		return errors.New("no terminal: use -p TEXT, and answer from `elicit attach`")
	}
	w, h, _ := term.GetSize(os.Stdout.Fd())
	m := fullscreen.New(fullscreen.Options{Agent: cfg, NoColor: noColor(), Memory: st.memory, Notify: fullscreen.Notify(st.settings.Notify),
		Theme: string(st.settings.Theme), Width: w, Height: h, Share: sv.Share, ShareLine: "shared: " + line})
	return codeErr(runScreen(m))
}

// runScreen runs the full screen behind the output boundary and prints the
// conversation when it ends.
func runScreen(m *fullscreen.Model) int {
	p := newScreenProgram(m)
	stop := procgroup.TrapSignals(context.Background(), func(os.Signal) { p.Kill() }, syscall.SIGHUP)
	_, err := p.Run()
	stop()
	m.Close()
	procgroup.Default.Shutdown()
	io.WriteString(textOut(os.Stdout), m.Transcript())
	if err != nil {
		if errors.Is(err, tea.ErrProgramPanic) {
			if path := fullscreen.CrashLog(); path != "" {
				fmt.Fprintf(os.Stderr, "elicit crashed; the crash log is at %s\n", path)
			}
		}
		fmt.Fprintln(textOut(os.Stderr), "elicit:", err)
		return 1
	}
	return 0
}

func codeErr(code int) error {
	if code == 0 {
		return nil
	}
	return exitCode(code)
}
