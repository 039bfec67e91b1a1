package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/session"
	"github.com/elicit-dev/elicit/internal/theme"
)

// permModal asks the user to allow a tool call. A number key or ↑/↓ moves
// to an option and Enter chooses it; no key grants on its own. The first
// reject option is selected at first, so a stray Enter grants nothing. Esc
// answers "cancelled".
type permModal struct {
	q            *session.Question
	agent        string
	th           *theme.Theme
	cursor       int
	out          session.Outcome
	finished     bool
	index, total int
}

func newPermModal(q *session.Question, agent string, th *theme.Theme) *permModal {
	p := &permModal{q: q, agent: agent, th: th}
	for i, o := range q.Perm.Options {
		if strings.HasPrefix(o.Kind, "reject") {
			p.cursor = i
			break
		}
	}
	return p
}

func (p *permModal) question() *session.Question { return p.q }
func (p *permModal) done() bool                  { return p.finished }
func (p *permModal) draft() string               { return "" }
func (p *permModal) setPosition(i, n int)        { p.index, p.total = i, n }

func (p *permModal) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	opts := p.q.Perm.Options
	if !ok {
		return nil
	}
	switch s := k.String(); {
	case s == "esc":
		p.out, p.finished = session.Outcome{Action: session.Cancel}, true
	case len(opts) == 0:
	case s == "up" || s == "shift+tab":
		p.cursor = (p.cursor + len(opts) - 1) % len(opts)
	case s == "down" || s == "tab":
		p.cursor = (p.cursor + 1) % len(opts)
	case s == "enter":
		p.out, p.finished = session.Outcome{Action: session.Choose, OptionID: opts[p.cursor].ID}, true
	case len(s) == 1 && s[0] >= '1' && s[0] <= '9' && int(s[0]-'1') < len(opts):
		p.cursor = int(s[0] - '1')
	}
	return nil
}

func (p *permModal) view(width, _ int) string {
	th := p.th
	inner := width - 4
	var b strings.Builder
	head := th.ModalTitle.Render("Permission") + th.Muted.Render(" · "+p.agent+" asks to run a tool")
	if p.total > 1 {
		head += th.Muted.Render(fmt.Sprintf(" · %d of %d", p.index, p.total))
	}
	b.WriteString(head + "\n\n")
	tc := p.q.Perm.ToolCall
	b.WriteString(th.ToolLabel.Render(ansi.Wrap(p.q.Tool, inner, " ")))
	if tc.Kind != "" {
		b.WriteString(th.Muted.Render(" [" + sanitize.ID(tc.Kind) + "]"))
	}
	b.WriteString("\n")
	for _, l := range tc.Locations {
		b.WriteString(th.Muted.Render("↳ "+ansi.Truncate(l, inner-2, "…")) + "\n")
	}
	lines := 0
	for _, c := range tc.Content {
		for _, l := range strings.Split(c, "\n") {
			if lines < 6 {
				b.WriteString(th.Border.Render("│ ") + ansi.Truncate(l, inner-2, "…") + "\n")
			}
			lines++
		}
	}
	if lines > 6 {
		b.WriteString(th.Muted.Render(fmt.Sprintf("│ … %d more lines", lines-6)) + "\n")
	}
	b.WriteString("\n")
	for i, o := range p.q.Perm.Options {
		style := th.Base
		if strings.HasPrefix(o.Kind, "reject") {
			style = th.Danger.UnsetBold()
		} else if strings.HasPrefix(o.Kind, "allow") {
			style = th.Success
		}
		cursor := "  "
		if i == p.cursor {
			cursor = th.Selected.Render("> ")
		}
		num := "  "
		if i < 9 {
			num = th.Key.Render(fmt.Sprint(i+1)) + " "
		}
		b.WriteString(cursor + num + style.Render(sanitize.Line(o.Name)) + "\n")
	}
	b.WriteString("\n" + th.KeyHelp.Render("1-9 or ↑/↓ select · enter choose · esc cancel"))
	return th.Modal.Width(width).Render(b.String())
}
