package urlconsent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/theme"
)

// RunOptions configure Run. The zero value draws on stderr, reads the
// keyboard from stdin, opens the browser with BrowserOpener, and uses a
// dark theme honouring NO_COLOR.
type RunOptions struct {
	// Header says who asks and why: the agent, the tool call and the
	// agent's message, all sanitized before they are drawn.
	Header Header
	// Opener opens the URL once the user chose Open; nil is BrowserOpener{}
	// ($BROWSER, else the system's browser; none over SSH).
	Opener Opener
	In     io.Reader // keys (default os.Stdin)
	Out    io.Writer // the screen (default os.Stderr, so stdout stays free)
	Theme  *theme.Theme
	// Grace is how long the screen ignores keys after it appears, so a
	// keystroke meant for something else cannot answer it; 0 is
	// DefaultGrace, negative is none (scripted input).
	Grace time.Duration
	// Accessible asks with line prompts instead of the full screen
	// (RunAccessible), for screen readers; In carries the answers.
	Accessible bool
	// URLs analyzes rawURL (its well-known domains: the user's own sites,
	// --top-domains); nil: the built-in list.
	URLs *urlcheck.Analyzer
}

// Run analyses rawURL, shows its consent screen as a program of its own
// and returns the user's outcome, the reply to the agent as it is. On
// "Open in browser" it hands the URL (the analysed one, host in ASCII) to
// the Opener and returns Accept once that worked; when it failed, the
// screen comes back with the reason, a copy key, the QR code over SSH and
// "I opened it myself" (Accept too, nothing started). Decline is an
// explicit no; Cancel is Esc, Ctrl+C or ctx ending. A URL that is not
// valid http or https is refused before anything is shown, with an error
// wrapping ErrNotOpenable. Inside a bubbletea program of your own, use
// NewConsent and OpenCmd instead.
func Run(ctx context.Context, rawURL string, o RunOptions) (question.Outcome, error) {
	r := o.URLs.Analyze(rawURL)
	if !r.Openable() {
		reason := "not http or https"
		if r.Invalid() {
			reason = "not a valid URL"
		}
		return question.Outcome{Action: question.Cancel}, fmt.Errorf("%w: %s", ErrNotOpenable, reason)
	}
	if o.Opener == nil {
		o.Opener = BrowserOpener{}
	}
	if o.In == nil {
		o.In = os.Stdin
	}
	if o.Out == nil {
		o.Out = os.Stderr
	}
	if o.Accessible {
		return RunAccessible(r, o.Header, o.Out, LinesFrom(o.In, o.Out), o.Opener)
	}
	switch {
	case o.Grace == 0:
		o.Grace = DefaultGrace
	case o.Grace < 0:
		o.Grace = 0
	}
	p := &consentProgram{c: NewConsent(r, o.Header, o.Theme, o.Grace, nil), opener: o.Opener}
	_, err := tea.NewProgram(p, tea.WithContext(ctx), tea.WithInput(o.In), tea.WithOutput(o.Out)).Run()
	if p.ended {
		return p.result, nil
	}
	if err == nil || errors.Is(err, tea.ErrInterrupted) || errors.Is(err, tea.ErrProgramKilled) || ctx.Err() != nil {
		return question.Outcome{Action: question.Cancel}, nil
	}
	return question.Outcome{}, err
}

// consentProgram hosts a Consent as a whole bubbletea program for Run: it
// opens the URL when the user chose Open and shows the screen again when
// that failed.
type consentProgram struct {
	c       *Consent
	opener  Opener
	opening bool // OpenCmd runs; keys are ignored meanwhile (the screen is done)
	ended   bool // the program ends with result
	result  question.Outcome
}

// Init implements tea.Model.
func (p *consentProgram) Init() tea.Cmd { return p.c.Init() }

// Update implements tea.Model.
func (p *consentProgram) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if p.ended { // quitting: a message still on its way (a terminal's report, a late key) must not open again
		return p, nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.c.SetSize(msg.Width, msg.Height)
		return p, nil
	case OpenedMsg:
		p.opening = false
		if msg.Err != nil {
			p.c.OpenFailed(msg.Err.Error(), errors.Is(msg.Err, ErrRemote))
			return p, nil
		}
		p.result, _ = p.c.Done()
		p.ended = true
		return p, tea.Quit
	}
	cmd := p.c.Update(msg)
	out, done := p.c.Done()
	switch {
	case !done || p.opening:
		return p, cmd
	case p.c.OpensBrowser():
		p.opening = true
		return p, OpenCmd(p.opener, p.c.URL())
	}
	p.result, p.ended = out, true
	return p, tea.Quit
}

// View draws the screen on the alternate screen, so the terminal's
// scrollback is left as it was.
func (p *consentProgram) View() tea.View {
	v := tea.NewView(p.c.View())
	v.AltScreen = true
	return v
}
