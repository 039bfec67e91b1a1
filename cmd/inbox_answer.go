package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/attach"
)

// inboxAnswer is how `elicit inbox answer` answers: exactly one of its
// flags.
type inboxAnswer struct {
	answers                           string
	acceptDefaults, decline, cancelIt bool
}

// newInboxAnswerCommand is `elicit inbox answer ID`.
func newInboxAnswerCommand(a *app, o *inboxOptions) *cobra.Command {
	var ans inboxAnswer
	cmd := &cobra.Command{
		Use:   "answer ID",
		Short: "Answer one waiting question from a script",
		Long: "Answers the question ID (as elicit inbox list shows it) in the session that asked it, which says it was answered " +
			"in the inbox, exactly as if answered at its own terminal: the form is checked against its schema first. Give one " +
			"of --answers FILE (property key to value, then what the form holds: its defaults and drafts), --accept-defaults, " +
			"--decline or --cancel. " +
			"Forms and URL flows only: a URL is declined or cancelled, never opened, and a permission needs a person.\n\n" +
			"Exit status: 0 when the session took this answer; 1 when it did not (no such question, answered elsewhere first, " +
			"or the file cannot fill the form: the question is left waiting, with the reason on stderr); 2 for a command line " +
			"or an answers file elicit cannot read; 130 when interrupted.",
		Example: `
elicit inbox answer 4242-1a2b.q1 --answers answers.json
elicit inbox answer 4242-1a2b.q1 --accept-defaults
elicit inbox answer 4242-1a2b.q2 --decline`,
		Args: needArgs(1, 1, "question id", "give the id of a waiting question, as elicit inbox list shows it: elicit inbox answer 4242-1a2b.q1 --decline"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n := 0
			for _, set := range []bool{ans.answers != "", ans.acceptDefaults, ans.decline, ans.cancelIt} {
				if set {
					n++
				}
			}
			if n != 1 {
				return usagef("give one of --answers FILE, --accept-defaults, --decline or --cancel")
			}
			io, err := o.options()
			if err != nil {
				return err
			}
			var answers map[string]json.RawMessage
			if ans.answers != "" {
				if answers, err = readAnswers(ans.answers); err != nil {
					return usagef("%v", answersError(ans.answers, err))
				}
			}
			if ans.acceptDefaults {
				answers = map[string]json.RawMessage{} // nothing given: every field's default
			}
			code, err := a.inboxAnswer(io, args[0], ans, answers)
			if err != nil {
				fmt.Fprintln(textOut(a.stderr), "elicit inbox answer:", sanitize.Text(err.Error()))
			}
			return a.exit(code)
		},
	}
	f := cmd.Flags()
	addAnswersFileFlag(cmd, &ans.answers)
	f.BoolVar(&ans.acceptDefaults, "accept-defaults", false, "accept the form as it stands: its defaults, and what was typed in it")
	f.BoolVar(&ans.decline, "decline", false, "decline it (tell the agent no)")
	f.BoolVar(&ans.cancelIt, "cancel", false, "cancel it (dismiss: nobody chose)")
	return cmd
}

// inboxAnswer answers question id and returns the exit status.
func (a *app) inboxAnswer(o inbox.Options, id string, ans inboxAnswer, answers map[string]json.RawMessage) (int, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, it, err := inbox.Open(ctx, o, id)
	if err != nil {
		return exitFailed, err
	}
	defer c.Close()
	done := ahp.InputCompleted{RequestID: it.Request.ID}
	switch {
	case it.Kind == ahp.MetaPermission:
		return exitFailed, errors.New("a permission needs a person: answer it in its session's screen")
	case ans.decline:
		done.Response = question.Decline
	case ans.cancelIt:
		done.Response = question.Cancel
	case it.Kind == ahp.MetaURL:
		return exitFailed, errors.New("a URL needs a person to consent to it: --decline or --cancel it here, or open it in its session")
	default:
		resp, final, why := attach.Fill(it.Request, answers)
		if resp != question.Accept {
			return exitFailed, fmt.Errorf("the form was left waiting: %s", why)
		}
		done.Response, done.Answers = resp, final
	}
	switch err := inbox.Complete(ctx, c, done); {
	case err == nil:
		fmt.Fprintf(textOut(a.stdout), "%s: %s\n", sanitize.Line(id), done.Response)
		return exitOK, nil
	case errors.Is(err, context.Canceled):
		return exitInterrupted, nil
	default:
		return exitFailed, err
	}
}
