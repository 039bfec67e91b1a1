package urlconsent

import (
	"context"
	"errors"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/urlconsent/urlcheck"
)

// RunOptions configure Run. The zero value draws on stderr, reads keys
// from stdin, opens with the system browser ($BROWSER honoured) and picks
// the theme from the terminal and NO_COLOR.
type RunOptions struct {
	In     io.Reader
	Out    io.Writer
	Opener Opener
	Theme  *theme.Theme
}

// Run shows one consent screen as a program of its own and returns what
// the user chose. Open is returned only once the browser started (when it
// cannot, the screen says why and stays up, offering "I opened it
// myself", which returns OpenedByUser). Esc, Ctrl+C and the end of ctx
// return Cancel. Inside a bubbletea program of your own, use NewConsent.
func Run(ctx context.Context, r urlcheck.Report, h Header, o RunOptions) (Action, error) {
	if o.In == nil {
		o.In = os.Stdin
	}
	if o.Out == nil {
		o.Out = os.Stderr
	}
	if o.Opener == nil {
		o.Opener = BrowserOpener{}
	}
	p := &consentProgram{c: NewConsent(r, h, o.Theme, 0, nil), opener: o.Opener}
	_, err := tea.NewProgram(p, tea.WithContext(ctx), tea.WithInput(o.In), tea.WithOutput(o.Out)).Run()
	if p.result != "" {
		return p.result, nil
	}
	if err == nil || errors.Is(err, tea.ErrInterrupted) || errors.Is(err, tea.ErrProgramKilled) || ctx.Err() != nil {
		return Cancel, nil
	}
	return "", err
}

// consentProgram hosts a Consent as a whole program for Run.
type consentProgram struct {
	c       *Consent
	opener  Opener
	result  Action
	opening bool // the browser is being started: once per consent
}

func (p *consentProgram) Init() tea.Cmd { return nil }

func (p *consentProgram) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
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
		p.result = Open
		return p, tea.Quit
	}
	cmd := p.c.Update(msg)
	if a, done := p.c.Done(); done {
		if a == Open {
			if p.opening {
				return p, cmd
			}
			p.opening = true
			return p, OpenCmd(p.opener, p.c.URL())
		}
		p.result = a
		return p, tea.Quit
	}
	return p, cmd
}

// View draws the screen on the alternate screen, so the terminal's
// scrollback is left as it was.
func (p *consentProgram) View() tea.View {
	v := tea.NewView(p.c.View())
	v.AltScreen = true
	return v
}
