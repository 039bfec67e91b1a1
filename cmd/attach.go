package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"os/user"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui"
	"github.com/elicit-dev/elicit/ui/attach"
	"github.com/elicit-dev/elicit/ui/fullscreen"
)

const attachExample = `
# The line elicit serve printed (the token stays in its file):
elicit attach ws://127.0.0.1:41234/ --token-file /tmp/elicit-serve-123/token

# From a laptop, through an SSH tunnel to the serving machine's loopback:
ssh -N -L 41234:127.0.0.1:41234 desk &
export ELICIT_AHP_TOKEN="$(ssh desk cat .elicit-token)"
elicit attach ws://127.0.0.1:41234/

# A script: answer every request from a file until the host goes away,
# one JSON line per completed request
elicit attach ws://127.0.0.1:41234/ --token-file tok --answers answers.json

# Answer the first request and exit: 0 when this answer was accepted
elicit attach ws://127.0.0.1:41234/ --token-file tok --answers answers.json --once
`

// newAttachCommand is `elicit attach URL`: a client of an `elicit serve`
// (or any Agent Host Protocol) host's input requests.
func newAttachCommand(a *app) *cobra.Command {
	var o attachOptions
	cmd := &cobra.Command{
		Use:   "attach URL",
		Short: "Answer the questions of a session elicit serve shares",
		Long: "Connects to an Agent Host Protocol host (the line elicit serve prints) and shows the open input requests of " +
			"its session in elicit's forms and URL consent screen. Drafts are shared with the other clients as you move between " +
			"fields; ctrl+s skips a question, ctrl+t takes another client's draft of the field you are in. With --answers FILE " +
			"it answers without a terminal (question id to value, an option's id for a single select, a list of ids for a " +
			"multi-select), every request until the host goes away, and prints each completed request as one JSON line; " +
			"with --once it answers the first request, prints its line and exits: 0 when this answer was accepted, 1 when " +
			"it was cancelled (the file could not fill it), declined, answered elsewhere or withdrawn, or the host went away " +
			"first.\n\n" +
			"The token comes from --token-file, from the environment variable --token-env names, or from $ELICIT_AHP_TOKEN; " +
			"--token works too, but puts it on the command line, where every local user can read it (ps).",
		Example: attachExample,
		Args:    needArgs(1, 1, "URL", "give the host's URL, as elicit serve printed it: elicit attach ws://127.0.0.1:41234/ --token-file FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.once && o.answers == "" {
				return usagef("--once answers one request from an answers file: give --answers FILE too")
			}
			if o.token != "" {
				fmt.Fprintln(textOut(a.stderr), "elicit attach: --token: every local user can read a command line (ps); use --token-file FILE or --token-env NAME")
			}
			if o.token == "" && o.tokenFile != "" {
				b, err := os.ReadFile(o.tokenFile)
				if err != nil {
					return err
				}
				o.token = strings.TrimSpace(string(b))
			}
			if o.token == "" && o.tokenEnv != "" {
				if o.token = os.Getenv(o.tokenEnv); o.token == "" {
					return fmt.Errorf("--token-env %s: the variable is not set", o.tokenEnv)
				}
			}
			if o.token == "" {
				o.token = os.Getenv("ELICIT_AHP_TOKEN")
			}
			o.url = args[0]
			code, err := a.runAttach(o)
			if err != nil {
				fmt.Fprintln(textOut(a.stderr), "elicit attach:", sanitize.Text(err.Error()))
			}
			return a.exit(code)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.token, "token", "", "the host's bearer `TOKEN`: on the command line, every local user can read it (prefer --token-file or --token-env)")
	f.StringVar(&o.tokenFile, "token-file", "", "read the token from `FILE`")
	f.StringVar(&o.tokenEnv, "token-env", "", "read the token from the environment variable `NAME` (default: ELICIT_AHP_TOKEN)")
	f.StringVar(&o.session, "session", "", "the session `URI` to attach to (ahp-session:/ID); default: the one waiting for input")
	addAnswersFileFlag(cmd, &o.answers)
	f.BoolVar(&o.once, "once", false, "with --answers: answer the first request, print its line and exit (0: this answer was accepted)")
	inGroup(f, groupAnswers, "once")
	f.StringVar(&o.name, "name", "", "the `NAME` other clients see you by (default: user@host)")
	f.BoolVar(&o.noHistory, "no-history", false, "neither remember nor prefill answers and sites")
	return cmd
}

// attachOptions are elicit attach's flags and its URL.
type attachOptions struct {
	url, token, tokenFile, tokenEnv, session, answers, name string
	once, noHistory                                         bool
}

// runAttach attaches and returns the exit status, and what went wrong.
func (a *app) runAttach(ao attachOptions) (int, error) {
	var answers map[string]json.RawMessage
	if ao.answers != "" {
		var err error
		if answers, err = readAnswers(ao.answers); err != nil {
			return exitUsage, answersError(ao.answers, err)
		}
	}
	name := ao.name
	if name == "" {
		name = attachName()
	}
	o := ahp.ClientOptions{URL: ao.url, Token: ao.token, Session: ao.session, ClientID: name + "-" + strconv.FormatInt(time.Now().UnixNano()%100000, 36)}
	tty := isTerminal(a.stdin) && isTerminal(a.stdout)
	if answers == nil && !tty {
		return exitUsage, errors.New("no terminal: use --answers FILE")
	}
	if answers != nil {
		o.GiveUpAfter = 5 * time.Second // a script ends when the host is gone
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	c, err := ahp.Dial(ctx, o)
	var several *ahp.SessionsError
	if errors.As(err, &several) && answers == nil {
		if o.Session, err = chooseSession(several.Sessions, a.stdin, textOut(a.stderr)); err == nil {
			c, err = ahp.Dial(ctx, o)
		}
	}
	cancel()
	if err != nil {
		return exitFailed, err
	}
	defer c.Close()
	if answers != nil {
		return a.attachScript(c, answers, ao.once)
	}
	w, h, _ := term.GetSize(os.Stdout.Fd())
	mem := ui.Memory{Agent: "attach:" + attachTitle(c)}
	if !ao.noHistory {
		// Forms are remembered under the session's name: the agent behind
		// the host is not named on the wire.
		if mem.History, err = history.Open(history.DefaultDir()); err != nil {
			fmt.Fprintln(textOut(a.stderr), "elicit attach: history:", sanitize.Line(err.Error()), "(nothing is remembered this time)")
			mem.History = nil
		}
	}
	src := attach.NewSource(c, attach.SourceOptions{Title: attachTitle(c)})
	m := fullscreen.NewAttach(src, fullscreen.Options{NoColor: noColor(), Width: w, Height: h, Memory: mem})
	p := newScreenProgram(m)
	_, err = runScreen(p, a.stderr)
	m.Close()
	if werr := m.WriteTranscript(textOut(a.stdout)); werr != nil {
		fmt.Fprintln(textOut(a.stderr), "elicit attach: the log could not be printed whole:", werr)
	}
	if err != nil {
		return exitFailed, err
	}
	return exitOK, nil
}

// attachScript answers from a file without a terminal: every request until
// the host goes away (0), or with once the first one (0 only when this
// answer was accepted); interrupted, 130.
func (a *app) attachScript(c *ahp.Client, answers map[string]json.RawMessage, once bool) (int, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out, errOut := textOut(a.stdout), textOut(a.stderr)
	if !once {
		err := attach.RunAnswers(ctx, c, answers, out, errOut)
		switch {
		case errors.Is(err, context.Canceled):
			return exitInterrupted, nil
		case err != nil:
			return exitFailed, err
		}
		return exitOK, nil
	}
	line, err := attach.AnswerOne(ctx, c, answers, out, errOut)
	switch {
	case errors.Is(err, context.Canceled):
		return exitInterrupted, nil
	case err != nil:
		return exitFailed, err
	case !line.Mine:
		return exitFailed, fmt.Errorf("request %s was answered elsewhere: %s (by %s)", sanitize.Line(line.Request), line.Response, sanitize.Line(line.By))
	case line.Response != question.Accept:
		return exitFailed, nil // the reason is on stderr already
	}
	return exitOK, nil
}

func attachName() string {
	n := "someone"
	if u, err := user.Current(); err == nil {
		n = u.Username
	}
	host, _ := os.Hostname()
	return n + "@" + host
}

// chooseSession asks which session when several could be meant.
func chooseSession(list []ahp.SessionSummary, in io.Reader, out io.Writer) (string, error) {
	fmt.Fprintln(out, "The host has several sessions:")
	for i, s := range list {
		mark := ""
		if s.NeedsInput() {
			mark = " (waiting for input)"
		}
		fmt.Fprintf(out, "  %d. %s %s%s\n", i+1, sanitize.Line(s.Title), sanitize.Line(s.Resource), mark)
	}
	fmt.Fprint(out, "Attach to which? ")
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil {
		return "", err
	}
	n, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || n < 1 || n > len(list) {
		return "", errors.New("no such session")
	}
	return list[n-1].Resource, nil
}

// attachTitle names the session in the header: the host's title for it,
// else its URI.
func attachTitle(c *ahp.Client) string {
	if t := c.Title(); t != "" {
		return sanitize.Line(t)
	}
	return sanitize.Line(c.Session())
}
