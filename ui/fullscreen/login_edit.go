package fullscreen

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/dialog"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
)

// loginEditModal shows a sign-in command elicit could only guess (the
// agent runs behind a wrapper that hides how it takes its arguments:
// acpconn.AuthMethod.Guess) in a line the user can edit; Enter runs the
// line in the terminal, Esc goes back to the methods.
type loginEditModal struct {
	method       acpconn.AuthMethod
	in           textinput.Model
	th           *theme.Theme
	index, total int
}

// runLoginAct runs a sign-in method's command line, as the user checked
// (and maybe edited) it.
type runLoginAct struct {
	method acpconn.AuthMethod
	line   string
}

// The keys of the command line (which takes what is typed).
var (
	loginRun  = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "runs it"))
	loginBack = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the methods"))
)

func newLoginEditModal(m acpconn.AuthMethod, th *theme.Theme) *loginEditModal {
	in := textinput.New()
	in.Prompt = "$ "
	in.CharLimit = 8192
	in.SetValue(m.CommandLine())
	in.CursorEnd()
	in.Focus()
	return &loginEditModal{method: m, in: in, th: th}
}

func (e *loginEditModal) question() *question.Question { return nil }
func (e *loginEditModal) setPosition(i, n int)         { e.index, e.total = i, n }
func (e *loginEditModal) draft() string                { return e.in.Value() }
func (e *loginEditModal) keys() []key.Binding {
	return []key.Binding{loginRun, loginBack, dialog.Text}
}

func (e *loginEditModal) update(msg tea.Msg) (action, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, loginBack):
			return backAct{}, nil
		case key.Matches(k, loginRun):
			if line := strings.TrimSpace(e.in.Value()); line != "" {
				return runLoginAct{e.method, line}, nil
			}
			return nil, nil
		}
	}
	var cmd tea.Cmd
	e.in, cmd = e.in.Update(msg)
	return nil, cmd
}

func (e *loginEditModal) view(width, _ int) string {
	th := e.th
	e.in.SetWidth(max(10, width-8))
	var b strings.Builder
	b.WriteString(th.ModalTitle.Render("Sign in: " + e.method.Name))
	intro := "elicit built this command from the agent's command line, but cannot tell how that line passes arguments on " +
		"(a wrapper script, say). Check it, edit it if need be; it runs in this terminal, through sh, and the agent starts again afterwards."
	b.WriteString("\n\n" + ansi.Wrap(intro, width-4, " ") + "\n\n" + e.in.View() + "\n")
	b.WriteString("\n" + th.KeyHelp.Render(dialog.HelpLine(e.keys())))
	return th.Modal.Width(width).Render(b.String())
}
