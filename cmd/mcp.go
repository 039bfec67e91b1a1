package cmd

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/ui/headless"
)

const mcpExample = `
# A server's tools in a full screen, its forms and URL requests answered there:
elicit mcp -- npx -y @modelcontextprotocol/server-everything

# A streamable HTTP server, with a header on every request:
elicit mcp --url http://localhost:3001/mcp --header 'Authorization: Bearer dev'

# For scripts: the tools, then one call with its forms answered from a file:
elicit mcp tools -- my-server
elicit mcp call my-tool --args '{"id":3}' --answers a.json -- my-server
`

// mcpOptions are the flags of `elicit mcp` and its subcommands.
type mcpOptions struct {
	agent                                agentOptions
	files                                fileOptions
	answers                              string
	url, protocol, args                  string
	headers                              []string
	acceptDefaults, decline, approveURLs bool
	autoRetry, accessible, quiet         bool
	timeout, flowTimeout                 time.Duration
}

// addMCPFlags adds the flags every `elicit mcp` command takes: the shared
// ones where they mean the same (--cwd, --log, --no-form, --no-url,
// --start-timeout; --config, --audit, --no-history, --top-domains;
// --answers, --accept-defaults, --auto-retry) and MCP's own.
func addMCPFlags(cmd *cobra.Command, o *mcpOptions) {
	fs := cmd.Flags()
	fs.StringVar(&o.url, "url", "", "a streamable HTTP server's `URL` instead of a command after --")
	fs.StringArrayVar(&o.headers, "header", nil, "an HTTP header `NAME:VALUE` for every request to --url (repeatable)")
	fs.BoolVar(&o.autoRetry, "auto-retry", false, "retry a call refused with -32042 once its URL flows are complete, without asking (once)")
	fs.StringVar(&o.protocol, "protocol", "", "ask for this MCP protocol `VERSION` (default: the SDK's latest, then 2025-11-25)")
	_ = fs.MarkHidden("protocol")
	fs.DurationVar(&o.timeout, "timeout", headless.DefaultTimeout, "tools, call: end the run after `DURATION` (exit status 124)")
	addAnswersFileFlag(cmd, &o.answers)
	fs.BoolVar(&o.acceptDefaults, "accept-defaults", false, "answer forms with their defaults where --answers does not (default: cancel them)")
	fs.BoolVar(&o.decline, "decline", false, "decline every form and URL without asking (tell the server no)")
	fs.BoolVar(&o.approveURLs, "approve-urls", false, "without a person: hand URLs that are not high-risk to the browser (default: cancel them)")
	fs.DurationVar(&o.flowTimeout, "flow-timeout", headless.DefaultFlowTimeout, "without a person: the `DURATION` to wait for notifications/elicitation/complete after a -32042 URL opened")
	inGroup(fs, groupAnswers, "accept-defaults", "decline", "approve-urls", "flow-timeout")
	addAgentFlags(cmd, &o.agent)
	addFileFlags(cmd, &o.files)
	// MCP has a server and no session: the shared flags say so here.
	for name, usage := range map[string]string{
		"cwd":           "the server's working `DIR`, for a command after -- (default: the current one)",
		"no-form":       "do not declare form elicitation to the server",
		"no-url":        "do not declare URL elicitation to the server",
		"start-timeout": "the `DURATION` the server has to start and answer initialize",
	} {
		fs.Lookup(name).Usage = usage
	}
	inGroup(fs, groupServer, "url", "header", "auto-retry", "timeout", "cwd")
}

// newMCPCommand is `elicit mcp`: an MCP server's tools in a full screen,
// and `tools` and `call` for scripts.
func newMCPCommand(a *app) *cobra.Command {
	var o mcpOptions
	cmd := &cobra.Command{
		Use:   "mcp [-- SERVER COMMAND...]",
		Short: "Try an MCP server's tools and answer its elicitations",
		Long: "Connects to an MCP server (a command over stdio after --, or a streamable HTTP endpoint with --url), declares form " +
			"and URL elicitation, and lists its tools, prompts and resources: pick a tool, fill its arguments, run it, and answer " +
			"the forms and URL requests it sends on the way, with the same forms and consent screen as an agent's questions.\n\n" +
			"elicit mcp tools and elicit mcp call are the same without a screen, for scripts and CI.",
		Example: mcpExample,
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			argv, err := serverArgv(cmd, args, 0)
			if err != nil {
				return err
			}
			cfg, err := o.server(argv)
			if err != nil {
				return err
			}
			return a.exit(a.mcpScreen(o, cfg))
		},
	}
	addMCPFlags(cmd, &o)
	cmd.Flags().BoolVar(&o.files.noInbox, "no-inbox", false, "keep the server's questions out of elicit inbox (also inbox = false in the config file)")
	inGroup(cmd.Flags(), groupServer, "no-inbox")
	tools := &cobra.Command{
		Use:     "tools [-- SERVER COMMAND...]",
		Short:   "Print the server's tools, one a line: the name, a tab, the title",
		Example: "elicit mcp tools -- my-server\nelicit mcp tools --no-url --url http://localhost:3001/mcp",
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			argv, err := serverArgv(cmd, args, 0)
			if err != nil {
				return err
			}
			ho, err := a.mcpHeadless(o, argv)
			if err != nil {
				return err
			}
			defer ho.close()
			return a.exit(withSignals(func() int { return headless.RunMCPTools(ho.MCPOptions) }))
		},
	}
	addMCPFlags(tools, &o)
	call := &cobra.Command{
		Use:   "call TOOL [-- SERVER COMMAND...]",
		Short: "Call one tool and print its text (exit 0), or its error on stderr (exit 1)",
		Long: "Calls one tool. On a terminal the server's forms and URL requests are asked; with --answers, --accept-defaults " +
			"or --decline, or without a terminal, they are answered without asking: a form from the file, then the defaults, " +
			"and URLs only with --approve-urls; --decline declines; anything else is cancelled (nobody chose), with the reason on stderr.",
		Example: "elicit mcp call echo --args '{\"message\":\"hi\"}' -- my-server\n" +
			"elicit mcp call my-tool --answers a.json --approve-urls --auto-retry -- my-server",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || cmd.ArgsLenAtDash() == 0 {
				return usagef("name the tool: elicit mcp call TOOL -- SERVER...")
			}
			tool := args[0]
			argv, err := serverArgv(cmd, args, 1)
			if err != nil {
				return err
			}
			o.accessible = accessible(cmd.Flags(), o.accessible) || dumbTerminal()
			ho, err := a.mcpHeadless(o, argv)
			if err != nil {
				return err
			}
			defer ho.close()
			ho.Tool, ho.Quiet = tool, o.quiet
			if o.args != "" {
				if !json.Valid([]byte(o.args)) || !strings.HasPrefix(strings.TrimSpace(o.args), "{") {
					return usagef("--args must be a JSON object")
				}
				ho.Args = json.RawMessage(o.args)
			}
			return a.exit(withSignals(func() int { return headless.RunMCPCall(ho.MCPOptions) }))
		},
	}
	addMCPFlags(call, &o)
	addAccessibleFlag(call, &o.accessible)
	call.Flags().StringVar(&o.args, "args", "", "the tool's arguments, a JSON `OBJECT`")
	call.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "no line on stderr for each form accepted (what was declined, cancelled or went wrong is still said)")
	inGroup(call.Flags(), groupServer, "args")
	inGroup(call.Flags(), groupAnswers, "quiet")
	delete(call.Flags().Lookup("accessible").Annotations, groupAnnotation) // no session here: with -h and the rest
	cmd.AddCommand(tools, call)
	for _, c := range []*cobra.Command{tools, call} {
		c.Flags().SortFlags = false
	}
	return cmd
}

// withSignals runs a command without a screen so that a signal ends the
// server or agent (its whole process group) first; the status is then the
// signal's.
func withSignals(run func() int) int {
	procgroup.HoldSignals() // see prepare
	sig := endOnSignal()
	code := run()
	if s := sig.stop(); s != nil {
		return procgroup.ExitCode(s)
	}
	return code
}

// serverArgv is the server's command: what follows --, with want
// arguments of the command's own before it.
func serverArgv(cmd *cobra.Command, args []string, want int) ([]string, error) {
	dash := cmd.ArgsLenAtDash()
	switch {
	case dash < 0 && len(args) > want:
		return nil, usagef("the server's command goes after --: elicit %s -- %s", cmd.CommandPath()[len("elicit "):], strings.Join(args[want:], " "))
	case dash > want:
		return nil, usagef("unexpected argument %q before --", args[want])
	case dash < 0:
		return nil, nil
	}
	return args[dash:], nil
}

// server is the server's config from the flags and its command.
func (o mcpOptions) server(argv []string) (mcpconn.Config, error) {
	cfg := mcpconn.Config{Argv: argv, Dir: o.agent.cwd, NoForm: o.agent.noForm, NoURL: o.agent.noURL, ClientVersion: readVersion().short(),
		StartTimeout: o.agent.startTimeout, ProtocolVersion: o.protocol}
	switch {
	case o.url != "" && len(argv) > 0:
		return cfg, usagef("give either --url or a server command after --, not both")
	case o.url == "" && len(argv) == 0:
		return cfg, usagef("give a server command after -- (or --url URL)")
	case o.url != "":
		u, err := url.Parse(o.url)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return cfg, usagef("--url must be an http or https URL")
		}
		cfg.URL = o.url
	}
	for _, h := range o.headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return cfg, usagef("--header %q: want NAME:VALUE", h)
		}
		if cfg.Header == nil {
			cfg.Header = http.Header{}
		}
		cfg.Header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	return cfg, nil
}

// mcpSetup opens the trace, hooks, history and the audit log as a
// session with an agent does; the server's own name (from initialize)
// names it for hooks and history.
func (a *app) mcpSetup(o mcpOptions, cfg *mcpconn.Config) (*setup, error) {
	top, err := readTopDomains(o.files.topDomains)
	if err != nil {
		return nil, usageError{err: err}
	}
	file, _, err := loadConfig(o.files.configFile)
	if err != nil {
		return nil, usageError{err: err}
	}
	st, err := newSetup(sessionRequest{opts: sessionOptions{files: o.files}, argv: []string{"mcp"}}, file, top)
	if err != nil {
		return nil, usageError{err: err}
	}
	cfg.URLs = st.urls
	st.memory.Agent = ""
	if o.agent.logFile != "" {
		lf, err := openTrace(o.agent.logFile)
		if err != nil {
			st.close()
			return nil, usageError{err: err}
		}
		cfg.Log = lf
		st.closers = append(st.closers, func() { lf.Close() })
	}
	return st, nil
}

// mcpRun is a headless run's options and what to close after it.
type mcpRun struct {
	headless.MCPOptions
	st *setup
}

func (r mcpRun) close() { r.st.close() }

// mcpHeadless builds the options of `tools` and `call`.
func (a *app) mcpHeadless(o mcpOptions, argv []string) (mcpRun, error) {
	cfg, err := o.server(argv)
	if err != nil {
		return mcpRun{}, err
	}
	if o.decline && (o.answers != "" || o.acceptDefaults) {
		return mcpRun{}, usagef("--decline answers no form: it cannot go with --answers or --accept-defaults")
	}
	var answers map[string]json.RawMessage
	if o.answers != "" {
		if answers, err = readAnswers(o.answers); err != nil {
			return mcpRun{}, usageError{err: answersError(o.answers, err)}
		}
	}
	st, err := a.mcpSetup(o, &cfg)
	if err != nil {
		return mcpRun{}, err
	}
	r := mcpRun{st: st, MCPOptions: headless.MCPOptions{Server: cfg, Answers: answers, AcceptDefaults: o.acceptDefaults,
		Decline: o.decline, ApproveURLs: o.approveURLs, AutoRetry: o.autoRetry, FlowTimeout: o.flowTimeout, Timeout: o.timeout,
		Memory: st.memory, Stdout: textOut(a.stdout), Stderr: textOut(a.stderr)}}
	if in, ok := a.askTerminal(); ok && answers == nil && !o.acceptDefaults && !o.decline {
		r.Person = true
		r.Ask = headless.TerminalAsker{In: in, Out: screenOut(a.stderr), Theme: theme.New(true, noColor()), Accessible: o.accessible, URLs: st.urls}
	}
	return r, nil
}

// askTerminal is where a person's keys come from when elicit can ask one:
// stderr is a terminal (the questions draw there), and stdin is one, or
// else the controlling terminal is (stdin then carries data).
func (a *app) askTerminal() (io.Reader, bool) {
	if !isTerminal(a.stderr) {
		return nil, false
	}
	if isTerminal(a.stdin) {
		return a.stdin, true
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return nil, false
	}
	return tty, true
}
