package forms

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/schema"
	"github.com/elicit-dev/elicit/internal/theme"
)

// Exit statuses of `elicit form`.
const (
	ExitAccept  = 0
	ExitDecline = 1
	ExitUsage   = 2
	ExitCancel  = 130
)

// MarshalJSON writes the response as the protocol wants it: content only
// with accept, and then always (an empty object when nothing was filled).
func (o Outcome) MarshalJSON() ([]byte, error) {
	if o.Action != Accept {
		return json.Marshal(struct {
			Action Action `json:"action"`
		}{o.Action})
	}
	c := o.Content
	if c == nil {
		c = map[string]any{}
	}
	return json.Marshal(struct {
		Action  Action         `json:"action"`
		Content map[string]any `json:"content"`
	}{o.Action, c})
}

// RunCLI is `elicit form [--accessible] [--answers FILE] [FILE|-]`: one
// form from a schema file or stdin, either a bare schema or a whole
// elicitation/create params object. It prints the response JSON on stdout
// and returns the exit status: 0 accept, 1 decline, 130 cancel, 2 for a
// usage error or a refused schema. The form draws on stderr. With no
// terminal (isTTY false) or with --answers, no one is asked: the answers
// file, then the defaults fill the form, and a required field with neither
// declines it with the reason on stderr.
func RunCLI(args []string, stdin io.Reader, stdout, stderr io.Writer, isTTY bool) int {
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
		return ExitUsage
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return ExitUsage
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "elicit form:", err)
		return ExitUsage
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
	s, h, err := parseRequest(raw)
	if err != nil {
		return fail(err)
	}
	var out Outcome
	switch {
	case *answersPath != "" || !isTTY:
		out, err = answerWithoutPerson(s, *answersPath, stderr)
	case *accessible:
		if fromStdin {
			return fail(errors.New("with --accessible, give the schema as a FILE: stdin carries the answers"))
		}
		out, err = RunAccessible(s, h, stdin, stderr)
	default:
		out, err = runProgram(s, h, stderr)
	}
	if err != nil {
		return fail(err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintln(stdout, string(b))
	switch out.Action {
	case Accept:
		return ExitAccept
	case Decline:
		return ExitDecline
	}
	return ExitCancel
}

// parseRequest accepts a bare schema or elicitation/create params (with
// requestedSchema, message and mode, which must be form if present).
func parseRequest(raw []byte) (*schema.Schema, Header, error) {
	h := Header{Agent: "elicit form"}
	var params struct {
		Mode            *string         `json:"mode"`
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	if json.Unmarshal(raw, &params) == nil && (params.RequestedSchema != nil || params.Mode != nil) {
		if params.Mode != nil && *params.Mode != "form" {
			return nil, h, fmt.Errorf("mode %q: elicit form shows form mode only", *params.Mode)
		}
		if params.RequestedSchema == nil {
			return nil, h, errors.New("params without requestedSchema")
		}
		raw, h.Message = params.RequestedSchema, params.Message
	}
	s, err := schema.ParseSchema(raw)
	return s, h, err
}

// answerWithoutPerson fills the form from the answers file (if any) and
// the defaults, saying on stderr what it did.
func answerWithoutPerson(s *schema.Schema, path string, stderr io.Writer) (Outcome, error) {
	var answers map[string]json.RawMessage
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return Outcome{}, err
		}
		if err := json.Unmarshal(b, &answers); err != nil {
			return Outcome{}, fmt.Errorf("answers file %s: not a JSON object: %w", path, err)
		}
	} else {
		fmt.Fprintln(stderr, "elicit form: no terminal, so no one is asked: answering with the schema's defaults")
	}
	content, err := s.FromAnswers(answers)
	if err != nil {
		fmt.Fprintln(stderr, "elicit form: declined:", err)
		return Outcome{Action: Decline}, nil
	}
	return Outcome{Action: Accept, Content: content}, nil
}

// program hosts a Model as a whole bubbletea program for `elicit form`.
type program struct{ m *Model }

// Init implements tea.Model.
func (p program) Init() tea.Cmd { return p.m.Init() }

// Update implements tea.Model: it sizes the form and quits once it is done.
func (p program) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		p.m.SetSize(ws.Width, ws.Height)
	}
	cmd := p.m.Update(msg)
	if _, done := p.m.Done(); done {
		return p, tea.Quit
	}
	return p, cmd
}

// View draws the form on the alternate screen, so the terminal's
// scrollback is left as it was.
func (p program) View() tea.View {
	v := tea.NewView(p.m.View())
	v.AltScreen = true
	return v
}

func runProgram(s *schema.Schema, h Header, out io.Writer) (Outcome, error) {
	m := NewModel(s, h, Options{Theme: theme.New(true, theme.NoColor())})
	_, err := tea.NewProgram(program{m}, tea.WithOutput(out)).Run()
	if o, done := m.Done(); done {
		return o, nil
	}
	if errors.Is(err, tea.ErrInterrupted) || err == nil {
		return Outcome{Action: Cancel}, nil
	}
	return Outcome{}, err
}
