package fullscreen

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
)

// slashRows is how many commands the completion list shows at once.
const slashRows = 6

// slashState is the completion list's selection and scroll.
type slashState struct {
	typed    string // what was typed when sel was set: new text resets it
	sel, off int
}

// slashMatches are the agent's commands that start with what is typed
// after "/" (names may hold spaces: gemini's "memory show" stays listed
// after "memory "), or, once a whole name and a space are typed, that
// command alone (arg), whose input hint is shown.
func (m *agentPanel) slashMatches() (list []acpconn.Command, arg *acpconn.Command) {
	v := m.input.Value()
	if !strings.HasPrefix(v, "/") || strings.Contains(v, "\n") {
		return nil, nil
	}
	typed := strings.ToLower(v[1:])
	for i, c := range m.commands {
		name := strings.ToLower(c.Name)
		switch {
		case strings.HasPrefix(name, typed):
			list = append(list, c)
		case strings.HasPrefix(typed, name+" ") && (arg == nil || len(c.Name) > len(arg.Name)):
			arg = &m.commands[i]
		}
	}
	if len(list) > 0 {
		arg = nil
	}
	if m.slash.typed != v {
		m.slash = slashState{typed: v}
	}
	return list, arg
}

// slashKey moves the selection with ↑/↓ while the list shows (and the
// user is not stepping through earlier prompts).
func (m *agentPanel) slashKey(k tea.KeyPressMsg) bool {
	list, _ := m.slashMatches()
	if len(list) == 0 || m.hist.pos < len(m.hist.entries) {
		return false
	}
	switch k.String() {
	case "up":
		m.slash.sel = (m.slash.sel + len(list) - 1) % len(list)
	case "down":
		m.slash.sel = (m.slash.sel + 1) % len(list)
	default:
		return false
	}
	if m.slash.sel < m.slash.off {
		m.slash.off = m.slash.sel
	}
	if m.slash.sel >= m.slash.off+slashRows {
		m.slash.off = m.slash.sel - slashRows + 1
	}
	return true
}

// completeCommand fills in the selected command on Tab.
func (m *agentPanel) completeCommand() bool {
	list, _ := m.slashMatches()
	if len(list) == 0 {
		return false
	}
	v := "/" + list[min(m.slash.sel, len(list)-1)].Name + " "
	m.input.SetValue(v)
	m.slash = slashState{typed: v}
	return true
}

// hintsView is the completion list above the prompt: each matching
// command with its input hint and description, the selected one marked;
// or, while its input is typed, the command's hint.
func (m *agentPanel) hintsView(width int) string {
	th := m.th
	list, arg := m.slashMatches()
	if arg != nil {
		line := th.Accent.Render("/"+arg.Name) + " " + th.Key.Render(orText(arg.Hint, "(no input expected)")) + th.Muted.Render(" — "+arg.Description)
		return truncateLine(line, width)
	}
	if len(list) == 0 {
		return ""
	}
	end := min(len(list), m.slash.off+slashRows)
	var rows []string
	for i := m.slash.off; i < end; i++ {
		c := list[i]
		cur := "  "
		name := th.Accent.Render("/" + c.Name)
		if i == m.slash.sel {
			cur, name = th.Selected.Render("> "), th.Selected.Render("/"+c.Name)
		}
		row := cur + name
		if c.Hint != "" {
			row += " " + th.Key.Render(c.Hint)
		}
		rows = append(rows, truncateLine(row+"  "+th.Muted.Render(c.Description), width))
	}
	foot := "tab completes · ↑/↓ choose"
	if len(list) > slashRows {
		foot += fmt.Sprintf(" · %d–%d of %d", m.slash.off+1, end, len(list))
	}
	return strings.Join(rows, "\n") + "\n" + truncateLine(th.KeyHelp.Render("  "+foot), width)
}

func orText(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
