// Package cli is elicit's command line: it reads the arguments, picks the
// front end (the full screen, the line session or -p) and runs it. It is
// the only package that parses argv.
//
//	elicit                         # the built-in demo agent
//	elicit -- my-agent --flag      # any ACP agent
//	elicit -p "hello"              # one prompt, plain text out
//	elicit form schema.json        # one form; prints the response JSON
//	elicit url --json URL...       # the URL analysis alone
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"sync/atomic"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/demoagent"
	"github.com/elicit-dev/elicit/internal/hostile"
	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/ui/fullscreen"
	"github.com/elicit-dev/elicit/ui/headless"
	"github.com/elicit-dev/elicit/ui/line"
	"github.com/elicit-dev/elicit/urlconsent/urlcheck"
)

// demoAgentCommand is the hidden sub-command that runs the demo agent.
const demoAgentCommand = "__demo-agent"

// hostileAgentCommand is the hidden sub-command that runs the hostile
// agent the black-box tests attack elicit's output with.
const hostileAgentCommand = "__hostile-agent"

// Main runs elicit with args (the command line without the program's
// name) and returns its exit status. ELICIT_CPUPROFILE=FILE writes a CPU
// profile of the run.
func Main(args []string) int {
	if path := os.Getenv("ELICIT_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				code := run(args)
				pprof.StopCPUProfile()
				f.Close()
				return code
			}
		}
	}
	return run(args)
}

func run(args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case demoAgentCommand:
			if err := demoagent.Run(context.Background(), os.Stdin, os.Stdout); err != nil {
				fmt.Fprintln(os.Stderr, "demo agent:", err)
				return 1
			}
			return 0
		case hostileAgentCommand:
			if hostile.Run(context.Background(), os.Stdin, os.Stdout) != nil {
				return 1
			}
			return 0
		case "form":
			return runForm(args[1:], os.Stdin, textOut(os.Stdout), screenOut(os.Stderr), formTerminal())
		case "url":
			return runURL(args[1:], os.Stdin, textOut(os.Stdout), textOut(os.Stderr))
		case "sessions":
			return sessions(args[1:])
		}
		if code, ok := subcommand(args); ok {
			return code
		}
	}
	return session(args)
}

// formTerminal reports whether `elicit form` can ask a person: the form
// draws on stderr and reads keys from the terminal, even when stdin and
// stdout are pipes (`elicit form - < schema.json | jq`).
func formTerminal() bool {
	if !term.IsTerminal(os.Stderr.Fd()) {
		return false
	}
	if term.IsTerminal(os.Stdin.Fd()) {
		return true
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return false
	}
	tty.Close()
	return true
}

type options struct {
	cwd, logFile, prompt, answers, topDomains string
	configFile, audit                         string
	noHistory                                 bool
	mode, model                               string
	resume                                    resumeFlag
	noForm, noURL, accessible, autoRetry      bool
	approve, acceptDefaults, version          bool
	timeout, startTimeout                     time.Duration
}

func parseFlags(args []string) (options, []string, error) {
	var o options
	fs := flag.NewFlagSet("elicit", flag.ContinueOnError)
	fs.Usage = func() { usage(fs.Output(), fs) }
	fs.StringVar(&o.cwd, "cwd", "", "the session's working directory (default: the current one)")
	fs.StringVar(&o.logFile, "log", "", "write a full protocol trace to `FILE`")
	fs.StringVar(&o.prompt, "p", "", "send one prompt, print the reply as plain text, exit (no TTY needed)")
	fs.StringVar(&o.prompt, "prompt", "", "same as -p")
	fs.StringVar(&o.answers, "answers", "", "answer forms from a JSON `FILE` of property key -> value (then defaults)")
	fs.StringVar(&o.topDomains, "top-domains", "", "extra well-known domains to protect from lookalikes, one per line in `FILE`")
	fs.BoolVar(&o.noForm, "no-form", false, "do not declare form elicitation")
	fs.BoolVar(&o.noURL, "no-url", false, "do not declare URL elicitation")
	fs.BoolVar(&o.accessible, "accessible", os.Getenv("ACCESSIBLE") != "", "line-based prompts instead of the full screen (also ACCESSIBLE=1)")
	fs.BoolVar(&o.autoRetry, "auto-retry", false, "retry a prompt once the URL flows it needed are complete, without asking")
	fs.BoolVar(&o.approve, "approve", false, "with -p: allow the agent's tool calls and file writes (default: reject them)")
	fs.BoolVar(&o.acceptDefaults, "accept-defaults", false, "with -p: answer forms with their defaults when --answers does not (default: decline them)")
	fs.DurationVar(&o.timeout, "timeout", headless.DefaultTimeout, "with -p: end the run after `DURATION` (exit status 124)")
	fs.StringVar(&o.mode, "mode", "", "set the session's mode at start (an `ID` or name the agent offers; also with -p)")
	fs.StringVar(&o.model, "model", "", "set the session's model at start (an `ID` or name the agent offers; also with -p)")
	fs.Var(&o.resume, "resume", "take up a past session: --resume ID, or --resume alone for the most recent in the directory")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.StringVar(&o.configFile, "config", "", "read the configuration from `FILE` (default: "+config.DefaultPath()+")")
	fs.BoolVar(&o.noHistory, "no-history", false, "neither remember nor prefill answers and sites")
	fs.StringVar(&o.audit, "audit", "", "append every question and its answer to `FILE` (JSON lines)")
	fs.DurationVar(&o.startTimeout, "start-timeout", acpconn.DefaultStartTimeout, "how long the agent has to answer initialize, and then session/new")
	// Flags come before "--", the agent's command after it (or, without
	// "--", from the first argument that is not a flag).
	flagArgs, agent := args, []string(nil)
	dash := slices.Index(args, "--")
	if dash >= 0 {
		flagArgs, agent = args[:dash], args[dash+1:]
	}
	if err := fs.Parse(flagArgs); err != nil {
		return o, nil, err
	}
	pos := fs.Args()
	if o.resume.set && o.resume.id == "" && len(pos) == 1 { // --resume ID
		o.resume.id, pos = pos[0], nil
	}
	if dash < 0 {
		return o, pos, nil
	}
	if len(pos) > 0 {
		fmt.Fprintf(fs.Output(), "elicit: unexpected argument %q before --\n", pos[0])
		return o, nil, errors.New("unexpected argument")
	}
	return o, agent, nil
}

// resumeFlag is --resume with an optional value: alone it means the most
// recent session, --resume=ID (or --resume ID before --) that one.
type resumeFlag struct {
	set bool
	id  string
}

func (r *resumeFlag) String() string { return r.id }

// Set records the flag; "true" is what the flag package passes for a bare
// --resume.
func (r *resumeFlag) Set(v string) error {
	r.set = true
	if v != "true" {
		r.id = v
	}
	return nil
}

// IsBoolFlag lets --resume stand alone.
func (r *resumeFlag) IsBoolFlag() bool { return true }

func usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  elicit [flags] [-- AGENT COMMAND...]   a session with an ACP agent (default: the built-in demo agent)
  elicit [flags] NAME                    a session with a named agent (elicit agents lists them)
  elicit form [FILE|-]                   one form from a schema; prints {"action":...,"content":...}
  elicit url [--json] [--top-domains FILE] URL...   analyse URLs as the consent screen does
  elicit agents                          the named agents: config file and built-in, installed or not
  elicit config path|check               where the config file is; read it and say what is wrong
  elicit history [list|forget AGENT|clear]   what elicit remembers of answers and sites
  elicit sessions [--cwd DIR] [-- AGENT COMMAND...]  the agent's past sessions in the directory
  elicit --resume [ID] [-- AGENT COMMAND...]         take up a past session (no ID: the most recent)

Flags:
`)
	fs.PrintDefaults()
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// sessions is `elicit sessions`: the agent's past sessions.
func sessions(args []string) int {
	o, argv, err := parseFlags(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg, closeLog, code := agentConfig(o, argv)
	if code != 0 {
		return code
	}
	defer closeLog()
	// The agent, and anything it left behind, ends with this command
	// however it ends (see session).
	defer procgroup.Default.Shutdown()
	procgroup.HoldSignals()
	stop := procgroup.TrapSignals(context.Background(), func(os.Signal) { procgroup.Default.Shutdown() })
	defer stop()
	return headless.RunSessions(headless.SessionsOptions{Agent: cfg, Stdout: textOut(os.Stdout), Stderr: textOut(os.Stderr)})
}

// agentConfig is the agent to run: argv, or the demo agent; with --log,
// closeLog closes the trace file. code is non-zero on a bad flag.
func agentConfig(o options, argv []string) (cfg acpconn.Config, closeLog func(), code int) {
	closeLog = func() {}
	if len(argv) == 0 {
		self, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, "elicit:", err)
			return cfg, closeLog, 1
		}
		argv = []string{self, demoAgentCommand}
	}
	cfg = acpconn.Config{Argv: argv, Dir: o.cwd, NoForm: o.noForm, NoURL: o.noURL, ClientVersion: version(), StartTimeout: o.startTimeout}
	if o.logFile != "" {
		f, err := os.OpenFile(o.logFile, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, "elicit:", err)
			return cfg, closeLog, 2
		}
		cfg.Log, closeLog = f, func() { f.Close() }
	}
	return cfg, closeLog, 0
}

func session(args []string) int {
	o, argv, err := parseFlags(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if o.version {
		fmt.Println("elicit", version())
		return 0
	}
	if o.topDomains != "" {
		if err := urlcheck.LoadTopDomains(o.topDomains); err != nil {
			fmt.Fprintln(os.Stderr, "elicit:", err)
			return 2
		}
	}
	file, _, err := loadConfig(o.configFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "elicit:", err)
		return 2
	}
	st, err := newSetup(o, file, argv, slices.Contains(args, "--"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "elicit:", err)
		return 2
	}
	defer st.close()
	// However elicit ends, no agent it started outlives it: every agent's
	// process group is tracked from its spawn and ended here (SIGTERM,
	// then SIGKILL), including one still starting or being restarted.
	defer procgroup.Default.Shutdown()
	// A signal ends the agents first; the front end then sees its agent
	// exit (or its start fail) and returns.
	var caught atomic.Value
	endAgents := func(s os.Signal) {
		caught.CompareAndSwap(nil, s)
		procgroup.Default.Shutdown()
	}
	signalled := func(code int) int {
		if s, ok := caught.Load().(os.Signal); ok {
			fmt.Fprintf(os.Stderr, "elicit: %v: the agent was ended\n", s)
			return procgroup.ExitCode(s)
		}
		return code
	}
	cfg, closeLog, code := agentConfig(o, st.argv)
	cfg.Env = st.env
	if code != 0 {
		return code
	}
	defer closeLog()
	var answers map[string]json.RawMessage
	if o.answers != "" {
		data, err := os.ReadFile(o.answers)
		if err == nil {
			err = json.Unmarshal(data, &answers)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "elicit: --answers %s: %v\n", o.answers, err)
			return 2
		}
	}
	// From here on no signal kills elicit outright: each front end handles
	// the ones it ends on, and one that comes while the agents are being
	// ended (a closed terminal sends a second SIGHUP when its shell exits)
	// must not cut the grace and the SIGKILL short. Nor does SIGPIPE: a
	// closed stdout is a write error.
	procgroup.HoldSignals()
	tty := term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd())
	if o.prompt != "" || !tty {
		if o.prompt == "" {
			fmt.Fprintln(os.Stderr, "elicit: no terminal: use -p TEXT to send one prompt")
			return 2
		}
		stop := procgroup.TrapSignals(context.Background(), endAgents)
		code := headless.Run(headless.Options{Agent: cfg, Prompt: o.prompt, Answers: answers, AcceptDefaults: o.acceptDefaults,
			Approve: o.approve, Timeout: o.timeout, Mode: o.mode, Model: o.model, Resume: o.resume.set, ResumeID: o.resume.id,
			Memory: st.memory, Stdout: textOut(os.Stdout), Stderr: textOut(os.Stderr)})
		stop()
		return signalled(code)
	}
	if !o.accessible && dumbTerminal() {
		fmt.Fprintln(os.Stderr, "elicit: TERM="+os.Getenv("TERM")+" cannot draw the full screen; using the line session (--accessible)")
		o.accessible = true
	}
	if o.accessible {
		// SIGINT is the accessible session's own (it cancels a turn).
		stop := procgroup.TrapSignals(context.Background(), endAgents, syscall.SIGTERM, syscall.SIGHUP)
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		code := line.Run(line.Options{Agent: cfg, In: os.Stdin, Out: textOut(os.Stdout), Answers: answers, AutoRetry: o.autoRetry, Signals: sig, Memory: st.memory})
		signal.Stop(sig)
		stop()
		return signalled(code)
	}
	w, h, _ := term.GetSize(os.Stdout.Fd()) // the first frame is drawn at once, at this size
	m := fullscreen.New(fullscreen.Options{Agent: cfg, AutoRetry: o.autoRetry, NoColor: noColor(), Answers: answers, Memory: st.memory,
		Notify: fullscreen.Notify(st.settings.Notify), Theme: string(st.settings.Theme), Mode: o.mode, Model: o.model, Resume: o.resume.set, ResumeID: o.resume.id,
		Width: w, Height: h})
	p := newScreenProgram(m)
	// A closed terminal (SIGHUP) would kill elicit at once: end the
	// program instead, so the agents are ended below. (bubbletea handles
	// SIGINT and SIGTERM.)
	stop := procgroup.TrapSignals(context.Background(), func(os.Signal) { p.Kill() }, syscall.SIGHUP)
	_, err = p.Run()
	stop()
	// However the program ended, the agent's process group ends too, and
	// one still starting or restarting.
	m.Close()
	procgroup.Default.Shutdown()
	// The alternate screen took the conversation with it: print it to the
	// normal screen, so it stays in the scrollback.
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
