package forms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/theme"
)

// ParseRequest reads a bare restricted schema, or the params of an ACP or
// MCP elicitation/create (requestedSchema, message, and mode, which must be
// "form" when present). A schema outside the restricted subset is a
// *schema.SchemaError naming the property: answer the request with -32602.
func ParseRequest(raw []byte) (*schema.Schema, Header, error) {
	var h Header
	var params struct {
		Mode            *string         `json:"mode"`
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	if json.Unmarshal(raw, &params) == nil && (params.RequestedSchema != nil || params.Mode != nil) {
		if params.Mode != nil && *params.Mode != "form" {
			return nil, h, fmt.Errorf("mode %q: not a form", *params.Mode)
		}
		if params.RequestedSchema == nil {
			return nil, h, errors.New("params without requestedSchema")
		}
		raw, h.Message = params.RequestedSchema, params.Message
	}
	s, err := schema.ParseSchema(raw)
	return s, h, err
}

// Fill answers a form without asking anyone: each field takes its value
// from answers (property key to JSON value; nil for none), then its
// default. When a required field has neither, or a value does not fit its
// field, the form is cancelled and the error says why: nobody said no to
// it, and a decline would tell the server that a person did.
func Fill(s *schema.Schema, answers map[string]json.RawMessage) (question.Outcome, error) {
	content, err := s.FromAnswers(answers)
	if err != nil {
		return question.Outcome{Action: question.Cancel}, err
	}
	return question.Outcome{Action: question.Accept, Content: content}, nil
}

// RunOptions configure Run. The zero value draws on stderr, reads the
// keyboard from stdin, and uses a dark theme honouring NO_COLOR.
type RunOptions struct {
	In  io.Reader // keys (default os.Stdin)
	Out io.Writer // the screen (default os.Stderr, so stdout stays free for the result)
	// Accessible asks with line-based prompts instead of the full screen,
	// for screen readers (In carries the answers, one a line).
	Accessible bool
	Theme      *theme.Theme  // default: theme.New(true, theme.NoColor())
	Grace      time.Duration // as Options.Grace: 0 is DefaultGrace, negative none
	// Prefill, RememberedAt and Suggestions are what history remembers
	// of this form (see Options).
	Prefill      map[string]json.RawMessage
	RememberedAt time.Time
	Suggestions  map[string][]string
}

// Run shows one form as a program of its own and returns the user's
// outcome: Accept with typed content, Decline, or Cancel (Esc, Ctrl+C, or
// ctx ended). Inside a bubbletea program of your own, use NewModel instead.
func Run(ctx context.Context, s *schema.Schema, h Header, o RunOptions) (question.Outcome, error) {
	if o.In == nil {
		o.In = os.Stdin
	}
	if o.Out == nil {
		o.Out = os.Stderr
	}
	if o.Accessible {
		return RunAccessible(s, h, o.In, o.Out)
	}
	if o.Theme == nil {
		o.Theme = theme.New(true, theme.NoColor())
	}
	m := NewModel(s, h, Options{Theme: o.Theme, Grace: o.Grace, Prefill: o.Prefill, RememberedAt: o.RememberedAt, Suggestions: o.Suggestions})
	_, err := tea.NewProgram(program{m}, tea.WithContext(ctx), tea.WithInput(o.In), tea.WithOutput(o.Out)).Run()
	if out, done := m.Done(); done {
		return out, nil
	}
	if err == nil || errors.Is(err, tea.ErrInterrupted) || errors.Is(err, tea.ErrProgramKilled) || ctx.Err() != nil {
		return question.Outcome{Action: question.Cancel}, nil
	}
	return question.Outcome{}, err
}

// program hosts a Model as a whole bubbletea program for Run.
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
