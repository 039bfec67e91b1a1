package attach

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// View draws the header, the last lines of the log, the question (or a
// line saying nothing waits), a notice, and the keys.
func (m *Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	v.SetContent(m.render())
	return v
}

func (m *Model) render() string {
	w := max(m.width, 20)
	head := m.th.Bold.Render("elicit attach") + m.th.Muted.Render(" · "+ansi.Truncate(m.who(), w/2, "…")+" · "+m.status)
	lines := []string{head}
	var foot []string
	if n := m.notice; n != "" {
		foot = append(foot, m.th.Danger.Render(ansi.Truncate(n, w, "…")))
	}
	keys := "ctrl+c quits"
	body := ""
	switch q := m.cur; {
	case q == nil:
		body = m.th.Muted.Render("no question waits: new ones appear here as the agent asks them")
	case q.sent:
		body = m.th.Muted.Render("sending your answer…")
	case q.consent != nil:
		q.consent.SetSize(w, max(m.height-6, 8))
		body = q.consent.View()
		keys = ""
	default:
		if n := q.sync.Notice(keyTakeTheirs); n != "" {
			foot = append(foot, m.th.Accent.Render(ansi.Truncate("⚑ "+n, w, "…")))
		}
		q.form.SetSize(w-4, max(m.height-len(foot)-6, 8))
		body = m.th.Modal.Width(w).Render(q.form.View())
		keys = keySkip + " skips the question · " + keyTakeTheirs + " takes another client's draft"
	}
	room := m.height - 2 - strings.Count(body, "\n") - 1 - len(foot)
	if keys != "" {
		room--
	}
	if room > 0 {
		start := max(0, len(m.log)-room)
		for _, l := range m.log[start:] {
			for _, part := range strings.Split(l, "\n") {
				lines = append(lines, m.th.Muted.Render(ansi.Truncate(part, w, "…")))
			}
		}
	}
	lines = append(lines, body)
	lines = append(lines, foot...)
	if keys != "" {
		lines = append(lines, m.th.Muted.Render(ansi.Truncate(keys, w, "…")))
	}
	return strings.Join(lines, "\n")
}
