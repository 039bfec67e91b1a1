package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/theme"
)

// choice is one answer of a choiceModal, picked by its key or by Enter.
type choice struct{ key, label, value string }

// choiceModal is a small local question with a few keyed answers (restart
// the agent, pick an auth method, retry a prompt). Esc picks "".
type choiceModal struct {
	title, body  string
	choices      []choice
	cursor       int
	picked       string
	finished     bool
	th           *theme.Theme
	shown        time.Time
	now          func() time.Time
	index, total int
}

func (c *choiceModal) reqID() uint64        { return 0 }
func (c *choiceModal) done() bool           { return c.finished }
func (c *choiceModal) draft() string        { return "" }
func (c *choiceModal) setPosition(i, n int) { c.index, c.total = i, n }
func (c *choiceModal) focus()               { c.shown = c.now() }

func (c *choiceModal) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || graceKeys(msg, c.shown, c.now) {
		return nil
	}
	switch s := k.String(); s {
	case "esc":
		c.finished = true
	case "up", "shift+tab":
		c.cursor = (c.cursor + len(c.choices) - 1) % len(c.choices)
	case "down", "tab":
		c.cursor = (c.cursor + 1) % len(c.choices)
	case "enter":
		c.picked, c.finished = c.choices[c.cursor].value, true
	default:
		for _, ch := range c.choices {
			if s == ch.key {
				c.picked, c.finished = ch.value, true
			}
		}
	}
	return nil
}

func (c *choiceModal) view(width, _ int) string {
	th := c.th
	var b strings.Builder
	b.WriteString(th.ModalTitle.Render(c.title))
	if c.total > 1 {
		b.WriteString(th.Muted.Render(fmt.Sprintf(" · %d of %d", c.index, c.total)))
	}
	b.WriteString("\n\n" + ansi.Wrap(c.body, width-4, " ") + "\n\n")
	for i, ch := range c.choices {
		cur := "  "
		if i == c.cursor {
			cur = th.Selected.Render("> ")
		}
		b.WriteString(cur + th.Key.Render(ch.key) + " " + ch.label + "\n")
	}
	b.WriteString("\n" + th.KeyHelp.Render("key or ↑/↓ enter · esc dismiss"))
	return th.Modal.Width(width).Render(b.String())
}

// exitModal offers a restart (a new session) or quitting after the agent
// exited; the transcript stays either way.
type exitModal struct{ choiceModal }

func newExitModal(agent, why string, th *theme.Theme, now func() time.Time) *exitModal {
	return &exitModal{choiceModal{
		title: "The agent stopped", th: th, now: now, shown: now(),
		body:    fmt.Sprintf("%s: %s. The transcript stays; the agent's last stderr lines are above.", agent, why),
		choices: []choice{{"r", "restart the agent (a new session)", "restart"}, {"q", "quit", "quit"}, {"esc", "look at the transcript first (ctrl+r restarts later)", ""}},
	}}
}

// authModal asks which of the agent's authentication methods to run.
type authModal struct{ choiceModal }

func newAuthModal(methods []acpconn.AuthMethod, agent string, th *theme.Theme, now func() time.Time) *authModal {
	a := &authModal{choiceModal{
		title: "Authentication required", th: th, now: now, shown: now(),
		body: agent + " needs you to sign in before it can start a session. Pick a method (esc quits):",
	}}
	for i, m := range methods {
		label := m.Name
		if m.Description != "" {
			label += " — " + m.Description
		}
		a.choices = append(a.choices, choice{fmt.Sprint(i + 1), label, m.ID})
	}
	return a
}

// retryModal offers to send again a prompt that needed URL elicitations.
type retryModal struct {
	choiceModal
	prompt string
}

func newRetryModal(prompt string, th *theme.Theme, now func() time.Time) *retryModal {
	return &retryModal{prompt: prompt, choiceModal: choiceModal{
		title: "Retry the prompt?", th: th, now: now, shown: now(),
		body:    "The URL flows the agent asked for are complete. Send the prompt again?\n\n" + prompt,
		choices: []choice{{"y", "retry now", "retry"}, {"n", "not now", "no"}},
	}}
}
