package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/ui/headless"
	"github.com/elicit-dev/elicit/urlconsent/urlcheck"
)

// mcpFlags are the flags of `elicit mcp` and its sub-commands.
type mcpFlags struct {
	url, logFile, cwd, answers, audit, configFile, topDomains, protocol string
	headers                                                             []string
	noForm, noURL, acceptDefaults, decline, approveURLs, autoRetry      bool
	noHistory                                                           bool
	timeout, startTimeout, flowTimeout                                  time.Duration
	args                                                                string
}

// runMCPCommand runs `elicit mcp …` (args after "mcp") and returns the
// exit status.
func runMCPCommand(args []string) int {
	code := 0
	cmd := newMCPCommand(&code)
	cmd.SetArgs(args)
	cmd.SetOut(textOut(os.Stdout))
	cmd.SetErr(textOut(os.Stderr))
	if err := cmd.Execute(); err != nil {
		if code == 0 {
			code = 2
		}
	}
	return code
}

// newMCPCommand is `elicit mcp`: an MCP server's tools in a full screen,
// and its sub-commands `tools` and `call` for scripts. The exit status is
// left in *code.
func newMCPCommand(code *int) *cobra.Command {
	var f mcpFlags
	root := &cobra.Command{
		Use:   "mcp [flags] (-- SERVER COMMAND... | --url URL)",
		Short: "Try an MCP server's tools, and answer its elicitations, in a full screen",
		Long: `elicit mcp connects to an MCP server (a command over stdio after --, or a streamable
HTTP endpoint with --url), declares form and URL elicitation, and shows its tools, prompts
and resources: pick a tool, fill its arguments, run it, and answer the forms and URL
requests it sends on the way.`,
		Example: `  elicit mcp -- npx -y @modelcontextprotocol/server-everything
  elicit mcp --url http://localhost:3001/mcp --header 'Authorization: Bearer …'
  elicit mcp tools -- my-server
  elicit mcp call trigger-elicitation-request --answers a.json -- npx @modelcontextprotocol/server-everything`,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			*code = mcpScreen(cmd, f, args)
			return nil
		},
	}
	pf := root.PersistentFlags()
	pf.StringVar(&f.url, "url", "", "a streamable HTTP `URL` instead of a server command")
	pf.StringArrayVar(&f.headers, "header", nil, "an HTTP header `K:V` sent with every request to --url (repeatable)")
	pf.BoolVar(&f.noForm, "no-form", false, "do not declare form elicitation")
	pf.BoolVar(&f.noURL, "no-url", false, "do not declare URL elicitation")
	pf.StringVar(&f.answers, "answers", "", "answer forms from a JSON `FILE` of property key -> value (then defaults), without asking")
	pf.BoolVar(&f.acceptDefaults, "accept-defaults", false, "answer forms with their defaults when --answers does not, without asking")
	pf.BoolVar(&f.decline, "decline", false, "decline every form without asking")
	pf.BoolVar(&f.approveURLs, "approve-urls", false, "without a person: hand URLs that are not high-risk to the browser (default: decline them)")
	pf.BoolVar(&f.autoRetry, "auto-retry", false, "retry a call refused with -32042 once its URL flows are complete, without asking (once)")
	pf.DurationVar(&f.flowTimeout, "flow-timeout", headless.DefaultFlowTimeout, "call: how long to wait for the server's notifications/elicitation/complete after a -32042 URL was opened")
	pf.DurationVar(&f.timeout, "timeout", headless.DefaultTimeout, "tools, call: end the run after `DURATION` (exit status 124)")
	pf.DurationVar(&f.startTimeout, "start-timeout", mcpconn.DefaultStartTimeout, "how long the server has to answer initialize")
	pf.StringVar(&f.logFile, "log", "", "write a full protocol trace to `FILE`")
	pf.StringVar(&f.cwd, "cwd", "", "the server's working directory (default: the current one)")
	pf.StringVar(&f.audit, "audit", "", "append every question and its answer to `FILE` (JSON lines)")
	pf.BoolVar(&f.noHistory, "no-history", false, "neither remember nor prefill answers and sites")
	pf.StringVar(&f.configFile, "config", "", "read the configuration from `FILE`")
	pf.StringVar(&f.topDomains, "top-domains", "", "extra well-known domains to protect from lookalikes, one per line in `FILE`")
	pf.StringVar(&f.protocol, "protocol", "", "ask for this MCP protocol `VERSION` (default: the SDK's latest, falling back)")
	_ = pf.MarkHidden("protocol")

	tools := &cobra.Command{
		Use:   "tools [flags] (-- SERVER COMMAND... | --url URL)",
		Short: "Print the server's tools, one a line: the name, a tab, the title",
		RunE: func(cmd *cobra.Command, args []string) error {
			o, c := mcpHeadless(cmd, f, args)
			if c != 0 {
				*code = c
				return nil
			}
			*code = withSignals(func() int { return headless.RunMCPTools(o) })
			return nil
		},
	}
	call := &cobra.Command{
		Use:   "call TOOL [--args JSON] [flags] (-- SERVER COMMAND... | --url URL)",
		Short: "Call one tool and print its text content (exit 0), or its error on stderr (exit 1)",
		Long: `Calls one tool. On a terminal the server's forms and URL requests are asked; with --answers,
--accept-defaults or --decline, or without a terminal, they are answered without asking (a form
that cannot be filled is declined, with the reason on stderr) and URLs are declined unless
--approve-urls.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || cmd.ArgsLenAtDash() == 0 {
				return mcpUsage(cmd, code, "name the tool: elicit mcp call TOOL -- SERVER...")
			}
			tool := args[0]
			o, c := mcpHeadless(cmd, f, args[1:])
			if c != 0 {
				*code = c
				return nil
			}
			o.Tool = tool
			if f.args != "" {
				if !json.Valid([]byte(f.args)) || !strings.HasPrefix(strings.TrimSpace(f.args), "{") {
					return mcpUsage(cmd, code, "--args must be a JSON object")
				}
				o.Args = json.RawMessage(f.args)
			}
			*code = withSignals(func() int { return headless.RunMCPCall(o) })
			return nil
		},
	}
	call.Flags().StringVar(&f.args, "args", "", "the tool's arguments, a JSON object")
	root.AddCommand(tools, call)
	root.CompletionOptions.DisableDefaultCmd = true // the root command has its own
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return mcpUsage(cmd, code, err.Error()) })
	return root
}

// mcpUsage reports a usage error (exit 2).
func mcpUsage(cmd *cobra.Command, code *int, msg string) error {
	fmt.Fprintln(cmd.ErrOrStderr(), "elicit mcp:", msg)
	fmt.Fprintln(cmd.ErrOrStderr(), "Run 'elicit mcp --help' for usage.")
	*code = 2
	return errors.New(msg)
}

// withSignals runs a headless command so that a signal ends the server
// (its whole process group) first, and exits with the signal's status.
func withSignals(run func() int) int {
	defer procgroup.Default.Shutdown()
	var caught atomic.Value
	stop := procgroup.TrapSignals(context.Background(), func(s os.Signal) {
		caught.CompareAndSwap(nil, s)
		procgroup.Default.Shutdown()
	})
	code := run()
	stop()
	if s, ok := caught.Load().(os.Signal); ok {
		fmt.Fprintf(os.Stderr, "elicit: %v: the server was ended\n", s)
		return procgroup.ExitCode(s)
	}
	return code
}

// mcpServer is the server's config from the flags and the command after
// --; a non-zero code is a usage error already reported.
func mcpServer(cmd *cobra.Command, f mcpFlags, argv []string) (mcpconn.Config, func(), int) {
	closeLog := func() {}
	cfg := mcpconn.Config{Argv: argv, Dir: f.cwd, NoForm: f.noForm, NoURL: f.noURL, ClientVersion: version(),
		StartTimeout: f.startTimeout, ProtocolVersion: f.protocol}
	var code int
	switch {
	case f.url != "" && len(argv) > 0:
		_ = mcpUsage(cmd, &code, "give either --url or a server command after --, not both")
		return cfg, closeLog, code
	case f.url == "" && len(argv) == 0:
		_ = mcpUsage(cmd, &code, "give a server command after -- (or --url URL)")
		return cfg, closeLog, code
	case f.url != "":
		u, err := url.Parse(f.url)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			_ = mcpUsage(cmd, &code, "--url must be an http or https URL")
			return cfg, closeLog, code
		}
		cfg.URL = f.url
	}
	if len(f.headers) > 0 {
		cfg.Header = http.Header{}
		for _, h := range f.headers {
			k, v, ok := strings.Cut(h, ":")
			if !ok || strings.TrimSpace(k) == "" {
				_ = mcpUsage(cmd, &code, fmt.Sprintf("--header %q: want NAME:VALUE", h))
				return cfg, closeLog, code
			}
			cfg.Header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
	if f.logFile != "" {
		lf, err := os.OpenFile(f.logFile, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), "elicit:", err)
			return cfg, closeLog, 2
		}
		cfg.Log, closeLog = lf, func() { lf.Close() }
	}
	return cfg, closeLog, 0
}

// mcpMemory opens hooks, history and the audit log as the ACP session
// does; the server's own name (from initialize) names it.
func mcpMemory(cmd *cobra.Command, f mcpFlags) (*setup, int) {
	if f.topDomains != "" {
		if err := urlcheck.LoadTopDomains(f.topDomains); err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), "elicit:", err)
			return nil, 2
		}
	}
	file, _, err := loadConfig(f.configFile)
	if err != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), "elicit:", err)
		return nil, 2
	}
	st, err := newSetup(options{noHistory: f.noHistory, audit: f.audit}, file, []string{"mcp"}, true)
	if err != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), "elicit:", err)
		return nil, 2
	}
	st.memory.Agent = "" // the server's name, once it said it
	return st, 0
}

// mcpHeadless builds the options of `tools` and `call`.
func mcpHeadless(cmd *cobra.Command, f mcpFlags, argv []string) (headless.MCPOptions, int) {
	var o headless.MCPOptions
	cfg, closeLog, code := mcpServer(cmd, f, argv)
	if code != 0 {
		return o, code
	}
	cobra.OnFinalize(closeLog)
	st, code := mcpMemory(cmd, f)
	if code != 0 {
		return o, code
	}
	cobra.OnFinalize(st.close)
	o = headless.MCPOptions{Server: cfg, AcceptDefaults: f.acceptDefaults, ApproveURLs: f.approveURLs, AutoRetry: f.autoRetry,
		FlowTimeout: f.flowTimeout, Timeout: f.timeout, Memory: st.memory, Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr()}
	if f.answers != "" {
		answers, err := readAnswers(f.answers)
		if err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), "elicit: --answers:", err)
			return o, 2
		}
		o.Answers = answers
	}
	if f.decline && (o.Answers != nil || f.acceptDefaults) {
		return o, mcpUsageCode(cmd, "--decline answers no form: it cannot go with --answers or --accept-defaults")
	}
	if in, ok := askTerminal(); ok && o.Answers == nil && !f.acceptDefaults && !f.decline {
		o.Person = true
		o.Ask = headless.TerminalAsker{In: in, Out: screenOut(os.Stderr), Theme: theme.New(true, noColor())}
	}
	return o, 0
}

func mcpUsageCode(cmd *cobra.Command, msg string) int {
	code := 0
	_ = mcpUsage(cmd, &code, msg)
	return code
}

// askTerminal is where a person's keys come from when elicit can ask one:
// stderr is a terminal (the questions draw there), and stdin is one, or
// else the controlling terminal is (stdin then carries data).
func askTerminal() (io.Reader, bool) {
	if !term.IsTerminal(os.Stderr.Fd()) {
		return nil, false
	}
	if term.IsTerminal(os.Stdin.Fd()) {
		return os.Stdin, true
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return nil, false
	}
	return tty, true
}

// serverName is a short name for the server before it says its own.
func serverName(cfg mcpconn.Config) string {
	if cfg.URL != "" {
		if u, err := url.Parse(cfg.URL); err == nil {
			return u.Host
		}
		return cfg.URL
	}
	return filepath.Base(cfg.Argv[0])
}
