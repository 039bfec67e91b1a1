package fullscreen

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/acpconn"
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
	finished     bool
	cancelled    bool
	th           *theme.Theme
	index, total int
}

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
func (e *loginEditModal) done() bool                   { return e.finished }
func (e *loginEditModal) setPosition(i, n int)         { e.index, e.total = i, n }
func (e *loginEditModal) draft() string                { return e.in.Value() }

// line is the command to run; ok is false when the user went back.
func (e *loginEditModal) line() (string, bool) {
	return strings.TrimSpace(e.in.Value()), !e.cancelled && strings.TrimSpace(e.in.Value()) != ""
}

func (e *loginEditModal) update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "esc":
			e.finished, e.cancelled = true, true
			return nil
		case "enter":
			if strings.TrimSpace(e.in.Value()) != "" {
				e.finished = true
			}
			return nil
		}
	}
	var cmd tea.Cmd
	e.in, cmd = e.in.Update(msg)
	return cmd
}

func (e *loginEditModal) view(width, _ int) string {
	th := e.th
	e.in.SetWidth(max(10, width-8))
	var b strings.Builder
	b.WriteString(th.ModalTitle.Render("Sign in: " + e.method.Name))
	intro := "elicit built this command from the agent's command line, but cannot tell how that line passes arguments on " +
		"(a wrapper script, say). Check it, edit it if need be; it runs in this terminal, through sh, and the agent starts again afterwards."
	b.WriteString("\n\n" + ansi.Wrap(intro, width-4, " ") + "\n\n" + e.in.View() + "\n")
	b.WriteString("\n" + th.KeyHelp.Render("enter runs it · esc back to the methods"))
	return th.Modal.Width(width).Render(b.String())
}
