package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
)

// Exit statuses of `elicit form`.
const (
	formAccept  = 0
	formDecline = 1 // a person, or a rule, said no
	formNobody  = 1 // cancelled with no person there: nothing was chosen
	formUsage   = 2
	formCancel  = 130 // the person dismissed it (Esc, Ctrl+C)
)

// formOptions are the flags of `elicit form`.
type formOptions struct {
	accessible     bool
	answers        string
	acceptDefaults bool
}

const formLong = `Shows one form from a JSON schema (the restricted schema of elicitation/create) or from a whole elicitation/create params object, and prints the response JSON on stdout: {"action":"accept","content":{...}}, {"action":"decline"} or {"action":"cancel"}. The schema comes from FILE, or from stdin when FILE is - or missing.

The form draws on stderr and reads keys from the terminal, so stdin and stdout may be pipes. With --answers or --accept-defaults, or with no terminal, no one is asked: the answers file, then the schema's defaults, fill the form. Nothing is made up for a person who is not there: with neither flag, or when they cannot fill the form, the answer is {"action":"cancel"}, the reason goes to stderr, and the exit status is 1.

Exit status: 0 accept, 1 decline or cancelled with no one to ask, 2 usage error or refused schema, 130 cancelled by you (Esc, Ctrl+C).`

const formExample = `
# Ask, and print the answer:
elicit form schema.json

# From a pipe, into jq:
curl -s https://example.com/schema.json | elicit form - | jq .content

# Answer without asking, from a file (then the defaults), or with the defaults alone:
elicit form schema.json --answers answers.json
elicit form schema.json --accept-defaults
`

// newFormCommand is `elicit form [FILE|-]`.
func newFormCommand(a *app) *cobra.Command {
	var o formOptions
	cmd := &cobra.Command{
		Use:     "form [FILE|-]",
		Short:   "One form from a schema; prints the answer JSON",
		Long:    formLong,
		Example: formExample,
		Args:    needArgs(0, 1, "schema FILE (or - for stdin)", ""),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.accessible = accessible(cmd.Flags(), o.accessible)
			return a.exit(runForm(o, args, a.stdin, textOut(a.stdout), screenOut(a.stderr), a.formTerminal()))
		},
	}
	addFormFlags(cmd, &o)
	addFormKeysFlag(a, cmd)
	return cmd
}

// addFormFlags adds the flags of `elicit form`.
func addFormFlags(cmd *cobra.Command, o *formOptions) {
	addAccessibleFlag(cmd, &o.accessible)
	addAnswersFileFlag(cmd, &o.answers)
	fs := cmd.Flags()
	fs.BoolVar(&o.acceptDefaults, "accept-defaults", false, "answer with the schema's defaults without asking, where --answers does not (default: ask, or cancel with no terminal)")
	inGroup(fs, groupAnswers, "accept-defaults")
}

// runForm runs `elicit form`: args holds FILE, "-" or nothing. It prints
// the response JSON on stdout and returns the exit status: 0 accept, 1
// decline or cancelled with no person there, 130 cancelled by the person,
// 2 for a usage error or a refused schema. The form draws on stderr. With
// no terminal (isTTY false), --answers or --accept-defaults, no one is
// asked, and session.Unattended answers, as for every front end: the
// answers file, then the defaults, fill the form; otherwise, or when they
// cannot, it is cancelled with the reason on stderr.
func runForm(o formOptions, args []string, stdin io.Reader, stdout, stderr io.Writer, isTTY bool) int {
	fail := func(err error) int {
		fmt.Fprintln(stderr, "elicit form:", err)
		return formUsage
	}
	path := ""
	if len(args) > 0 {
		path = args[0]
	}
	fromStdin := path == "" || path == "-"
	var raw []byte
	var err error
	if fromStdin {
		raw, err = io.ReadAll(stdin)
	} else {
		raw, err = os.ReadFile(path)
	}
	if err != nil {
		return fail(err)
	}
	s, h, err := forms.ParseRequest(raw)
	if err != nil {
		return fail(err)
	}
	h.Agent = "elicit form"
	var out question.Outcome
	nobody := false // no person was asked
	switch {
	case o.answers != "" || o.acceptDefaults || !isTTY:
		pol := session.Policy{AcceptDefaults: o.acceptDefaults}
		if o.answers != "" {
			if pol.Answers, err = readAnswers(o.answers); err != nil {
				return fail(err)
			}
		}
		res, _ := session.Unattended(question.Form, s, pol)
		if res.Action != question.Accept { // no rule here declines
			fmt.Fprintln(stderr, "elicit form: cancelled:", res.Reason)
		}
		out, nobody = res, true
	case o.accessible && fromStdin:
		return fail(errors.New("with --accessible, give the schema as a FILE: stdin carries the answers"))
	default:
		out, err = forms.Run(context.Background(), s, h, forms.RunOptions{In: stdin, Out: stderr, Accessible: o.accessible})
		if err != nil {
			return fail(err)
		}
	}
	b, err := json.Marshal(out.Reply(question.Form))
	if err != nil {
		return fail(err)
	}
	fmt.Fprintln(stdout, string(b))
	switch out.Action {
	case question.Accept:
		return formAccept
	case question.Decline:
		return formDecline
	case question.Cancel:
		if nobody {
			return formNobody
		}
	}
	return formCancel
}

// readAnswers reads an --answers file: a JSON object from property key to
// value.
func readAnswers(path string) (map[string]json.RawMessage, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var answers map[string]json.RawMessage
	if err := json.Unmarshal(b, &answers); err != nil {
		return nil, fmt.Errorf("answers file %s: not a JSON object: %w", path, err)
	}
	return answers, nil
}

// formTerminal reports whether `elicit form` can ask a person: the form
// draws on stderr and reads keys from the terminal, even when stdin and
// stdout are pipes (`elicit form - < schema.json | jq`).
func (a *app) formTerminal() bool {
	if !isTerminal(a.stderr) {
		return false
	}
	if isTerminal(a.stdin) {
		return true
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return false
	}
	tty.Close()
	return true
}
