package cli

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
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/ui/attach"
)

// newAttachCommand is `elicit attach`: a client of an `elicit serve` (or
// any Agent Host Protocol) host's input requests.
func newAttachCommand() *cobra.Command {
	var token, tokenFile, sessionURI, answers, name string
	cmd := &cobra.Command{
		Use:   "attach URL [--token T] [--session URI]",
		Short: "answer the questions of a session an `elicit serve` host shares",
		Long: `Connects to an Agent Host Protocol host (the line elicit serve prints) and shows the
open input requests of its session in elicit's forms and URL consent screen. Drafts are
shared with the other clients as you move between fields; ctrl+s skips a question, ctrl+t
takes another client's draft of the field you are in. With --answers FILE it answers
without a terminal (question id to value, an option's id for a single select, a list of
ids for a multi-select) and prints each completed request as one JSON line.

The token may also come from --token-file or $ELICIT_AHP_TOKEN.`,
		Args: cobra.ExactArgs(1),
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
			return runAttach(args[0], token, sessionURI, answers, name)
		},
	}
	f := cmd.Flags()
	f.StringVar(&token, "token", "", "the host's bearer token")
	f.StringVar(&tokenFile, "token-file", "", "read the token from `FILE`")
	f.StringVar(&sessionURI, "session", "", "the session to attach to (ahp-session:/ID); default: the one waiting for input")
	f.StringVar(&answers, "answers", "", "answer without a terminal from a JSON `FILE`; print each completed request as a JSON line")
	f.StringVar(&name, "name", "", "how other clients see you (default: user@host)")
	return cmd
}

func runAttach(url, token, sessionURI, answersFile, name string) error {
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
	tty := term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd())
	if answers != nil || !tty {
		o.GiveUpAfter = 5 * time.Second // a script ends when the host is gone
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	c, err := ahp.Dial(ctx, o)
	var several *ahp.SessionsError
	if errors.As(err, &several) && tty && answers == nil {
		if o.Session, err = chooseSession(several.Sessions, os.Stdin, textOut(os.Stderr)); err == nil {
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
		err := attach.RunAnswers(ctx, c, answers, textOut(os.Stdout), textOut(os.Stderr))
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	w, h, _ := term.GetSize(os.Stdout.Fd())
	m := attach.New(attach.Options{Conn: c, Title: attachTitle(c), NoColor: noColor(), Width: w, Height: h})
	p := newScreenProgram(m)
	_, err = p.Run()
	out := textOut(os.Stdout)
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
