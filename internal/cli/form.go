package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/elicit-dev/elicit/forms"
)

// Exit statuses of `elicit form`.
const (
	formAccept  = 0
	formDecline = 1
	formUsage   = 2
	formCancel  = 130
)

// runForm is `elicit form [--accessible] [--answers FILE] [FILE|-]`: one
// form from a schema file or stdin, either a bare schema or a whole
// elicitation/create params object. It prints the response JSON on stdout
// and returns the exit status: 0 accept, 1 decline, 130 cancel, 2 for a
// usage error or a refused schema. The form draws on stderr. With no
// terminal (isTTY false) or with --answers, no one is asked: the answers
// file, then the defaults fill the form, and a required field with neither
// declines it with the reason on stderr.
func runForm(args []string, stdin io.Reader, stdout, stderr io.Writer, isTTY bool) int {
	fs := flag.NewFlagSet("elicit form", flag.ContinueOnError)
	fs.SetOutput(stderr)
	accessible := fs.Bool("accessible", os.Getenv("ACCESSIBLE") != "", "ask with line-based prompts (also ACCESSIBLE=1)")
	answersPath := fs.String("answers", "", "answer without asking: a JSON object from property key to value")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: elicit form [--accessible] [--answers FILE] [FILE|-]")
		fmt.Fprintln(stderr, "Shows one form from a schema (or elicitation/create params) and prints the response JSON.")
		fmt.Fprintln(stderr, "Exit status: 0 accept, 1 decline, 130 cancel, 2 error.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return formUsage
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return formUsage
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "elicit form:", err)
		return formUsage
	}
	path := fs.Arg(0)
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
	var out forms.Outcome
	switch {
	case *answersPath != "" || !isTTY:
		var answers map[string]json.RawMessage
		if *answersPath != "" {
			if answers, err = readAnswers(*answersPath); err != nil {
				return fail(err)
			}
		} else {
			fmt.Fprintln(stderr, "elicit form: no terminal, so no one is asked: answering with the schema's defaults")
		}
		if out, err = forms.Fill(s, answers); err != nil {
			fmt.Fprintln(stderr, "elicit form: declined:", err)
		}
	case *accessible && fromStdin:
		return fail(errors.New("with --accessible, give the schema as a FILE: stdin carries the answers"))
	default:
		out, err = forms.Run(context.Background(), s, h, forms.RunOptions{In: stdin, Out: stderr, Accessible: *accessible})
		if err != nil {
			return fail(err)
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintln(stdout, string(b))
	switch out.Action {
	case forms.Accept:
		return formAccept
	case forms.Decline:
		return formDecline
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
