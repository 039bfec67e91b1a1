package forms

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/schema"
)

// secretWarning is shown under a field that seems to ask for a secret.
const secretWarning = "⚠ This looks like a secret. Forms go to the agent and its model: never type passwords, tokens or keys here."

// View draws the form: header, message, the fields (only the focused one
// shows its full widget; the others show their current answer), or the
// review screen, then the help line. With a height set, the body scrolls to
// keep the focused field in view; the help line always shows.
func (m *Model) View() string {
	head := m.headerLines()
	var body []string
	top, bottom := 0, 0
	if m.reviewing {
		body = m.reviewLines()
	} else {
		for _, e := range m.slots() {
			block := m.fieldLines(e)
			if e == m.cur {
				top, bottom = len(body), len(body)+len(block)
			}
			body = append(body, block...)
		}
		if len(m.entries) == 0 {
			body = append(body, m.th.Muted.Render("This form has no fields: Enter to review and send."))
		}
	}
	foot := m.footerLines()
	lines := append(head, body...)
	top, bottom = top+len(head), bottom+len(head)
	if m.height > 0 && len(lines)+len(foot) > m.height {
		lines = window(lines, top, bottom, m.height-len(foot))
	}
	return strings.Join(append(lines, foot...), "\n")
}

// window returns n lines of lines that include [top, bottom) if they fit,
// starting as high as possible.
func window(lines []string, top, bottom, n int) []string {
	if n <= 0 {
		return nil
	}
	start := 0
	if bottom > n {
		start = bottom - n
	}
	if top < start {
		start = top
	}
	end := min(start+n, len(lines))
	return lines[start:end]
}

// wrapText wraps (never cuts) s to the form's width.
func (m *Model) wrapText(s string, style lipgloss.Style, indent int) []string {
	w := max(m.width-indent, 10)
	var out string
	if !strings.ContainsAny(s, "\n\r\t") && ansi.StringWidth(s) <= w {
		out = style.Render(s) // fits: the same, without lipgloss's costly wrap
	} else {
		out = style.Width(w).Render(s)
	}
	pad := strings.Repeat(" ", indent)
	lines := strings.Split(out, "\n")
	for i := range lines {
		lines[i] = pad + strings.TrimRight(lines[i], " ")
	}
	return lines
}

func (m *Model) headerLines() []string {
	h := m.header
	agent := sanitize.Line(h.Agent)
	if agent == "" {
		agent = "The agent"
	}
	line := m.th.Title.Render(agent + " asks")
	if h.ToolCall != "" {
		line += m.ink.muted.render(" · tool call: ") + sanitize.Line(h.ToolCall)
	}
	if h.Total > 1 {
		line += m.ink.muted.render(fmt.Sprintf(" · %d of %d", h.Index, h.Total))
	}
	out := m.wrapText(line, lipgloss.NewStyle(), 0)
	if m.schema.Title != "" {
		out = append(out, m.wrapText(sanitize.Line(m.schema.Title), m.th.Bold, 0)...)
	}
	if msg := strings.TrimSpace(sanitize.Text(h.Message)); msg != "" {
		out = append(out, m.wrapText(msg, m.th.Base, 0)...)
	}
	if d := strings.TrimSpace(sanitize.Text(m.schema.Description)); d != "" {
		out = append(out, m.wrapText(d, m.th.Muted, 0)...)
	}
	return append(out, "")
}

// fieldLines draws one field: label with required marker, description,
// hints, secret warning, notes, then the widget (focused) or the current
// answer (not focused), then the error.
func (m *Model) fieldLines(e *entry) []string {
	f := e.f
	focused := e == m.cur
	indent := 2
	if e.companion {
		indent = 4
	}
	marker := "  "
	label := m.ink.bold.render(f.Label())
	if focused {
		marker = m.ink.accent.render("› ")
		label = m.ink.accent.render(f.Label())
	}
	if f.Required {
		label += m.ink.danger.render(" *")
	}
	out := []string{strings.Repeat(" ", indent-2) + marker + label}
	if focused || e.err != nil {
		if d := strings.TrimSpace(sanitize.Text(f.Description)); d != "" {
			out = append(out, m.wrapText(d, m.th.Muted, indent)...)
		}
		if hints := f.Hints(); len(hints) > 0 {
			out = append(out, m.wrapText(strings.Join(hints, " · "), m.th.Muted, indent)...)
		}
		if focused && len(f.Options) > filterAbove {
			out = append(out, m.wrapText(fmt.Sprintf("%d options · / to filter", len(f.Options)), m.th.Muted, indent)...)
		}
	}
	if f.Secret {
		out = append(out, m.wrapText(secretWarning, m.th.Warning, indent)...)
	}
	for _, n := range f.Notes {
		out = append(out, m.wrapText("note: "+n, m.th.Notice, indent)...)
	}
	if focused {
		m.ready(e)
		for _, l := range strings.Split(e.view(), "\n") {
			out = append(out, strings.Repeat(" ", indent)+l)
		}
	} else {
		out = append(out, strings.Repeat(" ", indent)+m.ink.secondary.render(e.answerText()))
	}
	if e.err != nil {
		out = append(out, m.wrapText("✗ "+e.err.Error(), m.th.Danger, indent)...)
	}
	return append(out, "")
}

// answerText is the entry's current answer as the user would read it.
func (e *entry) answerText() string {
	f := e.f
	switch {
	case f.Kind == schema.KindBoolean && (f.Required || f.HasDefault):
		return yesNo(e.yes)
	case f.Kind == schema.KindBoolean:
		switch e.choice {
		case "true":
			return "Yes"
		case "false":
			return "No"
		}
		return "(no answer)"
	case f.Kind == schema.KindSelect:
		switch e.choice {
		case noAnswer, "":
			return "(no answer)"
		case otherChoice:
			return "Other…"
		}
		return titleOf(f, e.choice)
	case f.Kind == schema.KindMultiSelect:
		if len(e.picks) == 0 {
			return "(none picked)"
		}
		t := make([]string, len(e.picks))
		for i, p := range e.picks {
			t[i] = titleOf(f, p)
		}
		return strings.Join(t, ", ")
	}
	if e.text == "" {
		return "(empty)"
	}
	return sanitize.Line(e.text)
}

func titleOf(f *schema.Field, v string) string {
	if i, ok := f.OptionIndex(v); ok {
		return sanitize.Line(f.Options[i].Title)
	}
	return sanitize.Line(v)
}

func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}

// reviewLines lists every answer before sending.
func (m *Model) reviewLines() []string {
	out := []string{m.th.Accent.Render("Review your answers"), ""}
	for _, e := range m.slots() {
		v, _ := e.value()
		ans := e.answerText()
		if v == nil {
			ans = "(no answer: left out)"
		}
		out = append(out, m.wrapText(m.th.Bold.Render(e.f.Label()+": ")+ans, lipgloss.NewStyle(), 2)...)
	}
	return append(out, "")
}

// footerLines is the error summary, then the help line or the discard
// question.
func (m *Model) footerLines() []string {
	var out []string
	if m.problem != "" && !m.reviewing {
		out = append(out, m.wrapText(sanitize.Line(m.problem), m.th.Danger, 0)...)
	}
	if m.confirming {
		return append(out, m.th.Warning.Render("Discard what you typed and cancel? ")+m.keys("y", "yes", "n", "no"))
	}
	var help string
	switch {
	case m.reviewing:
		help = m.keys("enter", "send", "shift+tab/backspace", "edit", "ctrl+d", "decline", "esc", "cancel")
	default:
		next := "next"
		if s := m.slots(); len(s) == 0 || m.cur == s[len(s)-1] {
			next = "review"
		}
		pairs := []string{"tab/shift+tab", "move", "enter", next}
		if m.cur != nil {
			switch m.cur.f.Kind {
			case schema.KindSelect:
				pairs = append(pairs, "↑/↓", "choose", "/", "filter")
			case schema.KindMultiSelect:
				pairs = append(pairs, "↑/↓", "move", "space", "toggle", "/", "filter")
			case schema.KindBoolean:
				if m.cur.f.Required || m.cur.f.HasDefault {
					pairs = append(pairs, "←/→ y/n", "choose")
				} else {
					pairs = append(pairs, "↑/↓", "choose")
				}
			}
		}
		help = m.keys(append(pairs, "ctrl+d", "decline", "esc", "cancel")...)
	}
	return append(out, m.wrapText(help, lipgloss.NewStyle(), 0)...)
}

// keys renders "key action · key action".
func (m *Model) keys(pairs ...string) string {
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		parts = append(parts, m.ink.key.render(pairs[i])+" "+m.ink.keyHelp.render(pairs[i+1]))
	}
	return strings.Join(parts, m.ink.keyHelp.render(" · "))
}
