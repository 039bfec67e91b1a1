package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/theme"
)

// permModal asks the user to allow a tool call. Each option has a number
// key; arrows and Enter work too; Esc answers "cancelled". The keys are
// choiceModal's; only the view is its own.
type permModal struct {
	choiceModal
	req   acpconn.PermissionRequest
	agent string
}

func newPermModal(req acpconn.PermissionRequest, agent string, th *theme.Theme, now func() time.Time) *permModal {
	p := &permModal{req: req, agent: agent, choiceModal: choiceModal{th: th, now: now, shown: now()}}
	for i, o := range req.Options {
		if i < len(choiceKeys) {
			p.choices = append(p.choices, choice{string(choiceKeys[i]), o.Name, o.ID})
		}
	}
	return p
}

func (p *permModal) reqID() uint64 { return p.req.ID }

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
		if i >= len(p.choices) {
			break
		}
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
		b.WriteString(cursor + th.Key.Render(p.choices[i].key) + " " + style.Render(o.Name) + "\n")
	}
	b.WriteString("\n" + th.KeyHelp.Render("1-"+p.choices[len(p.choices)-1].key+" choose · ↑/↓ enter · esc cancel"))
	return th.Modal.Width(width).Render(b.String())
}
