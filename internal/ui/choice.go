package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/session"
	"github.com/elicit-dev/elicit/internal/theme"
)

// choice is one answer of a choiceModal. key, when set, picks it at once
// (only in dialogs the user opened, never in ones that pop up); value is
// the typed result.
type choice struct {
	key, label string
	value      any
}

// choiceModal is a small question with a few answers, chosen with ↑/↓ and
// Enter (restart the agent, pick a sign-in method, retry a prompt). Esc
// picks nil.
type choiceModal struct {
	title, body  string
	choices      []choice
	cursor       int
	picked       any
	finished     bool
	th           *theme.Theme
	index, total int
	escHelp      string // what Esc does, for the help line ("" = dismiss)
}

func (c *choiceModal) question() *session.Question { return nil }
func (c *choiceModal) done() bool                  { return c.finished }
func (c *choiceModal) draft() string               { return "" }
func (c *choiceModal) setPosition(i, n int)        { c.index, c.total = i, n }

func (c *choiceModal) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	n := len(c.choices)
	switch s := k.String(); s {
	case "esc":
		c.finished = true
	case "up", "shift+tab":
		if n > 0 {
			c.cursor = (c.cursor + n - 1) % n
		}
	case "down", "tab":
		if n > 0 {
			c.cursor = (c.cursor + 1) % n
		}
	case "enter":
		if n > 0 {
			c.picked = c.choices[c.cursor].value
		}
		c.finished = true
	default:
		for i, ch := range c.choices {
			if ch.key != "" && s == ch.key {
				c.cursor = i
				c.picked, c.finished = ch.value, true
			}
		}
	}
	return nil
}

func (c *choiceModal) view(width, height int) string {
	th := c.th
	var b strings.Builder
	b.WriteString(th.ModalTitle.Render(c.title))
	if c.total > 1 {
		b.WriteString(th.Muted.Render(fmt.Sprintf(" · %d of %d", c.index, c.total)))
	}
	b.WriteString("\n\n" + ansi.Wrap(c.body, width-4, " ") + "\n\n")
	keyed := false
	rows := make([][]string, len(c.choices))
	for i, ch := range c.choices {
		cur := "  "
		if i == c.cursor {
			cur = th.Selected.Render("> ")
		}
		k := ""
		if ch.key != "" {
			k, keyed = th.Key.Render(ch.key)+" ", true
		}
		for j, l := range strings.Split(cur+k+ch.label, "\n") {
			if j > 0 {
				l = "  " + l
			}
			rows[i] = append(rows[i], ansi.Truncate(l, width-4, "…"))
		}
	}
	// Too many for the screen: a window around the cursor, so the cursor
	// is always in sight.
	room := height - lipgloss.Height(b.String()) - 5
	first, last := window(rows, c.cursor, max(3, room))
	if first > 0 {
		b.WriteString(th.Muted.Render(fmt.Sprintf("  ↑ %d more", first)) + "\n")
	}
	for _, r := range rows[first:last] {
		b.WriteString(strings.Join(r, "\n") + "\n")
	}
	if last < len(rows) {
		b.WriteString(th.Muted.Render(fmt.Sprintf("  ↓ %d more", len(rows)-last)) + "\n")
	}
	help := "↑/↓ enter · esc " + orText(c.escHelp, "dismiss")
	if keyed {
		help = "key or " + help
	}
	b.WriteString("\n" + th.KeyHelp.Render(help))
	return th.Modal.Width(width).Render(b.String())
}

// window is the range of rows, as many as fit in room lines, that keeps
// row cur in sight.
func window(rows [][]string, cur, room int) (first, last int) {
	total := 0
	for _, r := range rows {
		total += len(r)
	}
	if total <= room {
		return 0, len(rows)
	}
	room -= 2 // the "more" lines
	first, last = cur, cur+1
	used := len(rows[cur])
	for grew := true; grew; {
		grew = false
		if last < len(rows) && used+len(rows[last]) <= room {
			used += len(rows[last])
			last++
			grew = true
		}
		if first > 0 && used+len(rows[first-1]) <= room {
			first--
			used += len(rows[first])
			grew = true
		}
	}
	return first, last
}

// exitChoice is the answer of the agent-stopped dialog.
type exitChoice int

const (
	exitLook exitChoice = iota
	exitRestart
	exitQuit
)

// exitModal offers a restart (a new session) or quitting after the agent
// exited; the transcript stays either way. It pops up unasked, so it has no
// letter keys: ↑/↓ and Enter, and "look first" is selected.
type exitModal struct{ choiceModal }

func newExitModal(agent, why string, th *theme.Theme) *exitModal {
	return &exitModal{choiceModal{
		title: "The agent stopped", th: th,
		body: fmt.Sprintf("%s: %s. The transcript stays; the agent's last stderr lines are above.", agent, why),
		choices: []choice{
			{"", "look at the transcript first (ctrl+r restarts later)", exitLook},
			{"", "restart the agent (a new session)", exitRestart},
			{"", "quit", exitQuit},
		},
	}}
}

// retryModal offers to send again a prompt that needed URL elicitations;
// "not now" is selected, so a stray Enter sends nothing.
type retryModal struct {
	choiceModal
	prompt string
}

func newRetryModal(prompt string, th *theme.Theme) *retryModal {
	return &retryModal{prompt: prompt, choiceModal: choiceModal{
		title: "Retry the prompt?", th: th,
		body:    "The URL flows the agent asked for are complete. Send the prompt again?\n\n" + prompt,
		choices: []choice{{"", "not now", false}, {"", "retry now", true}},
	}}
}
