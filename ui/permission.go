package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/theme"
)

// permModal asks the user to allow a tool call. Each option has a number
// key; arrows and Enter work too; Esc answers "cancelled".
type permModal struct {
	req          acpconn.PermissionRequest
	agent        string
	th           *theme.Theme
	shown        time.Time
	now          func() time.Time
	cursor       int
	chosen       string // option id; "" with finished = cancelled
	finished     bool
	index, total int
}

func newPermModal(req acpconn.PermissionRequest, agent string, th *theme.Theme, now func() time.Time) *permModal {
	return &permModal{req: req, agent: agent, th: th, now: now, shown: now()}
}

func (p *permModal) reqID() uint64        { return p.req.ID }
func (p *permModal) done() bool           { return p.finished }
func (p *permModal) draft() string        { return "" }
func (p *permModal) setPosition(i, n int) { p.index, p.total = i, n }
func (p *permModal) focus()               { p.shown = p.now() }

func (p *permModal) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || graceKeys(msg, p.shown, p.now) {
		return nil
	}
	switch s := k.String(); s {
	case "esc":
		p.finished = true
	case "up", "k", "shift+tab":
		p.cursor = (p.cursor + len(p.req.Options) - 1) % len(p.req.Options)
	case "down", "j", "tab":
		p.cursor = (p.cursor + 1) % len(p.req.Options)
	case "enter":
		p.chosen, p.finished = p.req.Options[p.cursor].ID, true
	default:
		if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(p.req.Options) {
			p.chosen, p.finished = p.req.Options[n-1].ID, true
		}
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
	tc := p.req.ToolCall
	title := tc.Title
	if title == "" {
		title = tc.ID
	}
	b.WriteString(th.ToolLabel.Render(ansi.Wrap(title, inner, " ")))
	if tc.Kind != "" {
		b.WriteString(th.Muted.Render(" [" + tc.Kind + "]"))
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
	b.WriteString("\n")
	for i, o := range p.req.Options {
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
		b.WriteString(cursor + th.Key.Render(fmt.Sprintf("%d", i+1)) + " " + style.Render(o.Name) + "\n")
	}
	b.WriteString("\n" + th.KeyHelp.Render("1-"+strconv.Itoa(len(p.req.Options))+" choose · ↑/↓ enter · esc cancel"))
	return th.Modal.Width(width).Render(b.String())
}
