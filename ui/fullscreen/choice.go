package fullscreen

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/dialog"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
)

// choice is one answer of a choiceModal. key, when set, picks it at once
// (only in dialogs the user opened, never in ones that pop up); act is
// what picking it decides.
type choice struct {
	key, label string
	act        action
}

// choiceModal is a small question with a few answers, chosen with ↑/↓ and
// Enter (restart the agent, pick a sign-in method, retry a prompt). Esc
// decides esc (closeAct when nil).
type choiceModal struct {
	title, body  string
	who          string // who asks; "" is elicit itself
	asks         string // what it asks, where it waits under the prompt ("to retry a call")
	choices      []choice
	cursor       int
	esc          action // what Esc decides (nil: closeAct)
	th           *theme.Theme
	index, total int
	escHelp      string // what Esc does, for the help line ("" = dismiss)

	fr *frame // made at the first view: the dialogs are built as literals
	// placed is the size the cursor's row was last brought into view
	// for; moved says the cursor moved since. Scrolling by page leaves the
	// cursor, a move or a new size brings it back.
	placed [2]int
	moved  bool
}

// The keys every choice dialog shares.
var (
	choiceUp    = key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓ enter", "")) // not Tab: it is the key that takes a docked question, so a second press must not move off the option selected at first
	choiceDown  = key.NewBinding(key.WithKeys("down"))
	choiceEnter = key.NewBinding(key.WithKeys("enter"))
)

func (c *choiceModal) question() *question.Question { return nil }
func (c *choiceModal) draft() string                { return "" }
func (c *choiceModal) setPosition(i, n int)         { c.index, c.total = i, n }

// heading names the dialog where it waits under the prompt.
func (c *choiceModal) heading() string {
	if c.asks != "" {
		return c.asks
	}
	return "“" + c.title + "”"
}

// keys are the choices' own keys (in dialogs the user opened), ↑/↓ and
// Enter, the frame's scroll keys and Esc.
func (c *choiceModal) keys() []key.Binding {
	var picks []string
	for _, ch := range c.choices {
		if ch.key != "" {
			picks = append(picks, ch.key)
		}
	}
	move := choiceUp
	if len(picks) > 0 {
		move.SetHelp("key or ↑/↓ enter", "")
	}
	pick := key.NewBinding(key.WithKeys(picks...))
	pick.SetEnabled(len(picks) > 0)
	esc := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", orText(c.escHelp, "dismiss")))
	return []key.Binding{move, choiceDown, choiceEnter, pick, dialog.Scroll, esc}
}

func (c *choiceModal) update(msg tea.Msg) (action, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	n := len(c.choices)
	was := c.cursor
	defer func() { c.moved = c.moved || c.cursor != was }()
	switch s := k.String(); {
	case s == "esc":
		return c.escAct(), nil
	case key.Matches(k, dialog.Scroll):
		c.frame().scrollKey(s)
	case key.Matches(k, choiceUp):
		if n > 0 {
			c.cursor = (c.cursor + n - 1) % n
		}
	case key.Matches(k, choiceDown):
		if n > 0 {
			c.cursor = (c.cursor + 1) % n
		}
	case key.Matches(k, choiceEnter):
		if n == 0 {
			return c.escAct(), nil
		}
		return c.pick(c.cursor), nil
	default:
		for i, ch := range c.choices {
			if ch.key != "" && s == ch.key {
				c.cursor = i
				return c.pick(i), nil
			}
		}
	}
	return nil, nil
}

// escAct is what Esc decides.
func (c *choiceModal) escAct() action {
	if c.esc == nil {
		return closeAct{}
	}
	return c.esc
}

// pick is what choosing choice i decides.
func (c *choiceModal) pick(i int) action {
	if a := c.choices[i].act; a != nil {
		return a
	}
	return closeAct{}
}

func (c *choiceModal) frame() *frame {
	if c.fr == nil {
		c.fr = newFrame(c.th)
	}
	return c.fr
}

// view draws the dialog in the scrolling frame: the title and who asks on
// top, the text and every choice in the body (the cursor's row kept in
// view), the keys at the bottom. A long choice wraps under itself.
func (c *choiceModal) view(width, height int) string {
	th := c.th
	f := c.frame()
	f.title = c.title
	f.who = c.who
	if f.who == "" {
		f.who = "elicit"
	}
	if c.total > 1 {
		f.who += fmt.Sprintf(" · %d of %d", c.index, c.total)
	}
	inner := max(width-4, 10)
	var body []string
	if c.body != "" {
		body = append(strings.Split(c.body, "\n"), "")
	}
	keyed := false
	for _, ch := range c.choices {
		keyed = keyed || ch.key != ""
	}
	first := len(body)
	for i, ch := range c.choices {
		cur := "  "
		if i == c.cursor {
			cur = th.Selected.Render("> ")
		}
		k := ""
		if ch.key != "" {
			k = th.Key.Render(ch.key) + " "
		} else if keyed {
			k = "  "
		}
		body = append(body, hang(cur+k, ch.label, inner))
	}
	f.body = body
	if at := [2]int{width, height}; len(c.choices) > 0 && (at != c.placed || c.moved) {
		c.placed, c.moved = at, false
		f.ensureVisible(first + c.cursor)
	}
	f.keys = dialog.HelpLine(c.keys())
	return f.view(width, height)
}

// hang wraps text to width after prefix, the wrapped rows indented under
// the text's first cell.
func hang(prefix, text string, width int) string {
	pw := ansi.StringWidth(prefix)
	w := max(width-pw, 8)
	return prefix + strings.ReplaceAll(ansi.Wrap(text, w, " -"), "\n", "\n"+strings.Repeat(" ", pw))
}

// The exit dialog's answers: look at the transcript first, or restart the
// agent (a new session); quitting is quitAct.
type (
	lookAct    struct{}
	restartAct struct{}
)

// exitModal offers a restart (a new session) or quitting after the agent
// exited; the transcript stays either way. It pops up unasked, so it has no
// letter keys: ↑/↓ and Enter, and "look first" is selected.
type exitModal struct{ choiceModal }

func newExitModal(agent, why string, th *theme.Theme) *exitModal {
	return &exitModal{choiceModal{
		title: "The agent stopped", who: agent, th: th, asks: "what to do now the agent stopped", esc: lookAct{},
		body: fmt.Sprintf("%s: %s. The transcript stays; the agent's last stderr lines are above.", agent, why),
		choices: []choice{
			{"", "look at the transcript first (ctrl+r restarts later)", lookAct{}},
			{"", "restart the agent (a new session)", restartAct{}},
			{"", "quit", quitAct{}},
		},
	}}
}

// retryAct sends the prompt again.
type retryAct struct{ prompt string }

// retryModal offers to send again a prompt that needed URL elicitations;
// "not now" is selected, so a stray Enter sends nothing.
type retryModal struct{ choiceModal }

func newRetryModal(prompt string, th *theme.Theme) *retryModal {
	return &retryModal{choiceModal{
		title: "Retry the prompt?", th: th, asks: "to retry the prompt",
		body:    "The URL flows the agent asked for are complete. Send the prompt again?\n\n" + prompt,
		choices: []choice{{"", "not now", closeAct{}}, {"", "retry now", retryAct{prompt}}},
	}}
}
