package fullscreen

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
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
	who          string // who asks; "" is elicit itself
	choices      []choice
	cursor       int
	picked       any
	finished     bool
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

func (c *choiceModal) question() *question.Question { return nil }
func (c *choiceModal) done() bool                   { return c.finished }
func (c *choiceModal) draft() string                { return "" }
func (c *choiceModal) setPosition(i, n int)         { c.index, c.total = i, n }

// heading names the dialog where it waits under the prompt.
func (c *choiceModal) heading() string {
	return "elicit: " + strings.ToLower(c.title[:1]) + c.title[1:]
}

func (c *choiceModal) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	n := len(c.choices)
	was := c.cursor
	defer func() { c.moved = c.moved || c.cursor != was }()
	switch s := k.String(); {
	case s == "esc":
		c.finished = true
	case c.frame().scrollKey(s):
	case s == "up": // not Tab: it is the key that takes a docked question, so a second press must not move off the option selected at first
		if n > 0 {
			c.cursor = (c.cursor + n - 1) % n
		}
	case s == "down":
		if n > 0 {
			c.cursor = (c.cursor + 1) % n
		}
	case s == "enter":
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

// usesKey says whether k means something here: a choice's key, the
// frame's scroll keys, or a key that is not text.
func (c *choiceModal) usesKey(k tea.KeyPressMsg) bool {
	s := k.String()
	if k.Text == "" || c.frame().scrollKey(s) {
		return true
	}
	for _, ch := range c.choices {
		if ch.key != "" && s == ch.key {
			return true
		}
	}
	return false
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
	help := "↑/↓ enter · pgup/pgdn scroll · esc " + orText(c.escHelp, "dismiss")
	if keyed {
		help = "key or " + help
	}
	f.keys = help
	return f.view(width, height)
}

// hang wraps text to width after prefix, the wrapped rows indented under
// the text's first cell.
func hang(prefix, text string, width int) string {
	pw := ansi.StringWidth(prefix)
	w := max(width-pw, 8)
	return prefix + strings.ReplaceAll(ansi.Wrap(text, w, " -"), "\n", "\n"+strings.Repeat(" ", pw))
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
		title: "The agent stopped", who: agent, th: th,
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
