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
	"github.com/elicit-dev/elicit/ui/attach"
)

const attachExample = `
# The line elicit serve printed:
elicit attach ws://127.0.0.1:41234/ --token 7QdW…

# From a laptop, through an SSH tunnel to the serving machine's loopback:
ssh -N -L 41234:127.0.0.1:41234 desk &
elicit attach ws://127.0.0.1:41234/ --token-file ~/.elicit-token

# A script: answer every request from a file, one JSON line per completed request
elicit attach ws://127.0.0.1:41234/ --token-file tok --answers answers.json
`

// newAttachCommand is `elicit attach URL`: a client of an `elicit serve`
// (or any Agent Host Protocol) host's input requests.
func newAttachCommand(a *app) *cobra.Command {
	var token, tokenFile, sessionURI, answers, name string
	var noHistory bool
	cmd := &cobra.Command{
		Use:   "attach URL",
		Short: "Answer the questions of a session elicit serve shares",
		Long: "Connects to an Agent Host Protocol host (the line elicit serve prints) and shows the open input requests of " +
			"its session in elicit's forms and URL consent screen. Drafts are shared with the other clients as you move between " +
			"fields; ctrl+s skips a question, ctrl+t takes another client's draft of the field you are in. With --answers FILE " +
			"it answers without a terminal (question id to value, an option's id for a single select, a list of ids for a " +
			"multi-select) and prints each completed request as one JSON line.\n\n" +
			"The token may also come from --token-file or $ELICIT_AHP_TOKEN.",
		Example: attachExample,
		Args:    needArgs(1, 1, "URL", "give the host's URL, as elicit serve printed it: elicit attach ws://127.0.0.1:41234/ --token-file FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if token == "" && tokenFile != "" {
				b, err := os.ReadFile(tokenFile)
				if err != nil {
					return err
				}
				token = strings.TrimSpace(string(b))
			}
			if token == "" {
				token = os.Getenv("ELICIT_AHP_TOKEN")
			}
			if err := a.runAttach(args[0], token, sessionURI, answers, name, noHistory); err != nil {
				fmt.Fprintln(textOut(a.stderr), "elicit attach:", sanitize.Text(err.Error()))
				return a.exit(exitFailed)
			}
			return a.exit(exitOK)
		},
	}
	f := cmd.Flags()
	f.StringVar(&token, "token", "", "the host's bearer `TOKEN` (--token-file or $ELICIT_AHP_TOKEN keep it off the command line)")
	f.StringVar(&tokenFile, "token-file", "", "read the token from `FILE`")
	f.StringVar(&sessionURI, "session", "", "the session `URI` to attach to (ahp-session:/ID); default: the one waiting for input")
	addAnswersFileFlag(cmd, &answers)
	f.StringVar(&name, "name", "", "the `NAME` other clients see you by (default: user@host)")
	f.BoolVar(&noHistory, "no-history", false, "neither remember nor prefill answers and sites")
	return cmd
}

func (a *app) runAttach(url, token, sessionURI, answersFile, name string, noHistory bool) error {
	var answers map[string]json.RawMessage
	if answersFile != "" {
		data, err := os.ReadFile(answersFile)
		if err == nil {
			err = json.Unmarshal(data, &answers)
		}
		if err != nil {
			return fmt.Errorf("--answers %s: %w", answersFile, err)
		}
	}
	if name == "" {
		name = attachName()
	}
	o := ahp.ClientOptions{URL: url, Token: token, Session: sessionURI, ClientID: name + "-" + strconv.FormatInt(time.Now().UnixNano()%100000, 36)}
	tty := isTerminal(a.stdin) && isTerminal(a.stdout)
	if answers != nil || !tty {
		o.GiveUpAfter = 5 * time.Second // a script ends when the host is gone
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	c, err := ahp.Dial(ctx, o)
	var several *ahp.SessionsError
	if errors.As(err, &several) && tty && answers == nil {
		if o.Session, err = chooseSession(several.Sessions, a.stdin, textOut(a.stderr)); err == nil {
			c, err = ahp.Dial(ctx, o)
		}
	}
	cancel()
	if err != nil {
		return err
	}
	defer c.Close()
	if answers != nil || !tty {
		if answers == nil {
			return errors.New("no terminal: use --answers FILE")
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		err := attach.RunAnswers(ctx, c, answers, textOut(a.stdout), textOut(a.stderr))
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	w, h, _ := term.GetSize(os.Stdout.Fd())
	mem := attach.Memory{Agent: "attach:" + attachTitle(c)}
	if !noHistory {
		// Forms are remembered under the session's name: the agent behind
		// the host is not named on the wire.
		if mem.History, err = history.Open(history.DefaultDir()); err != nil {
			fmt.Fprintln(textOut(a.stderr), "elicit attach: history:", sanitize.Line(err.Error()), "(nothing is remembered this time)")
			mem.History = nil
		}
	}
	m := attach.New(attach.Options{Conn: c, Title: attachTitle(c), NoColor: noColor(), Width: w, Height: h, Memory: mem})
	p := newScreenProgram(m)
	_, err = runScreen(p, a.stderr)
	out := textOut(a.stdout)
	for _, l := range m.Log() {
		io.WriteString(out, l+"\n")
	}
	return err
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
