package fullscreen

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/dialog"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
)

// secretModal asks for the values a sign-in method needs (an env_var
// method's variables, an api-key) in masked fields. It is elicit's own
// dialog, not an elicitation: what is typed never goes to the agent as
// message content, the transcript, the history or the audit log; it goes
// only where the method says (the agent's environment, or authenticate's
// _meta). Enter moves on and submits; Esc goes back to the methods.
type secretModal struct {
	method       acpconn.AuthMethod
	fields       []textinput.Model
	labels       []string
	focus        int
	th           *theme.Theme
	index, total int
}

// secretAct gives the values typed for a sign-in method; backAct goes
// back to the methods.
type (
	secretAct struct {
		method acpconn.AuthMethod
		values []string
	}
	backAct struct{}
)

// The keys of the masked fields (which take what is typed).
var (
	secretNext = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next/submit"))
	secretMove = key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "move"))
	secretPrev = key.NewBinding(key.WithKeys("shift+tab", "up"))
	secretBack = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the methods"))
)

func newSecretModal(m acpconn.AuthMethod, th *theme.Theme) *secretModal {
	s := &secretModal{method: m, th: th}
	add := func(label string) {
		in := textinput.New()
		in.EchoMode = textinput.EchoPassword
		in.EchoCharacter = '•'
		in.Prompt = "> "
		in.CharLimit = 4096
		s.fields = append(s.fields, in)
		s.labels = append(s.labels, label)
	}
	if m.Kind == acpconn.AuthAPIKey {
		add("API key")
	}
	for _, v := range m.Vars {
		label := sanitize.Line(v.Name)
		if v.Label != "" {
			label += " (" + v.Label + ")"
		}
		if v.Optional {
			label += " (optional)"
		}
		add(label)
	}
	if len(s.fields) > 0 {
		s.fields[0].Focus()
	}
	return s
}

func (s *secretModal) question() *question.Question { return nil }
func (s *secretModal) setPosition(i, n int)         { s.index, s.total = i, n }
func (s *secretModal) keys() []key.Binding {
	return []key.Binding{secretNext, secretMove, secretPrev, secretBack, dialog.Text}
}

// draft is never shown: these are secrets.
func (s *secretModal) draft() string { return "" }

// values are the typed values, one per field.
func (s *secretModal) values() []string {
	out := make([]string, len(s.fields))
	for i, f := range s.fields {
		out[i] = strings.TrimSpace(f.Value())
	}
	return out
}

func (s *secretModal) update(msg tea.Msg) (action, tea.Cmd) {
	if len(s.fields) == 0 {
		return backAct{}, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, secretBack):
			return backAct{}, nil
		case key.Matches(k, secretNext) && s.focus == len(s.fields)-1:
			if s.complete() {
				return secretAct{s.method, s.values()}, nil
			}
			return nil, nil
		case key.Matches(k, secretNext, secretMove):
			return nil, s.move(1)
		case key.Matches(k, secretPrev):
			return nil, s.move(-1)
		}
	}
	var cmd tea.Cmd
	s.fields[s.focus], cmd = s.fields[s.focus].Update(msg)
	return nil, cmd
}

// complete reports whether every required field has a value.
func (s *secretModal) complete() bool {
	for i, f := range s.fields {
		optional := i < len(s.method.Vars) && s.method.Kind == acpconn.AuthEnvVar && s.method.Vars[i].Optional
		if strings.TrimSpace(f.Value()) == "" && !optional {
			s.focus = i
			return false
		}
	}
	return true
}

func (s *secretModal) move(d int) tea.Cmd {
	s.fields[s.focus].Blur()
	s.focus = (s.focus + d + len(s.fields)) % len(s.fields)
	return s.fields[s.focus].Focus()
}

func (s *secretModal) view(width, _ int) string {
	th := s.th
	var b strings.Builder
	b.WriteString(th.ModalTitle.Render("Sign in: " + s.method.Name))
	intro := "Typed here, kept in memory for this run only, and given to the agent's environment when it starts again."
	if s.method.Kind == acpconn.AuthAPIKey {
		intro = "Typed here and sent only in the agent's sign-in request (authenticate), never as a message."
	}
	b.WriteString("\n\n" + ansi.Wrap(intro, width-4, " "))
	if s.method.Link != "" {
		b.WriteString("\n" + th.Muted.Render("Get one at: "+s.method.Link))
	}
	b.WriteString("\n")
	for i, f := range s.fields {
		label := s.labels[i]
		if i == s.focus {
			label = th.Selected.Render(label)
		}
		b.WriteString("\n" + label + "\n" + f.View() + "\n")
	}
	b.WriteString("\n" + th.KeyHelp.Render(dialog.HelpLine(s.keys())))
	return th.Modal.Width(width).Render(b.String())
}
