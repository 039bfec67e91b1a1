package forms

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/dialog"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/schema"
)

// secretWarning is shown under a field that seems to ask for a secret.
const secretWarning = "⚠ This looks like a secret. Forms go to the agent and its model: never type passwords, tokens or keys here."

// View draws the form in the dialog frame: who asks and the title stay on
// top, the key line at the bottom, and the fields (only the focused one
// shows its full widget; the others show their current answer) or the
// review scroll between them. With a height set, the focused field is kept
// in view, its list made shorter when it would not fit, and the agent's
// message scrolls with the fields when it leaves them too little room.
func (m *Model) View() string {
	f := m.frame()
	f.Head, f.Pin = m.headerLines()
	f.Foot, f.Keys = m.footerLines()
	if m.reviewing {
		f.Body, f.MinBody = m.reviewLines(), m.height/2 // the message scrolls before the answers get less
		return strings.Join(f.Lines(m.width, m.height), "\n")
	}
	budget := 0 // rows the focused field may take; 0: no limit
	if m.height > 0 {
		pinned, _ := dialog.WrapRows(f.Head[:f.Pin], m.width)
		foot, _ := dialog.WrapRows(append(append([]string(nil), f.Foot...), f.Keys), m.width)
		budget = max(m.height-len(pinned)-len(foot)-2, 1) // 2: the scroll markers
	}
	var body []string
	f.MinBody = 0
	slots := m.slots()
	for _, e := range slots {
		block := m.fieldLines(e, budget)
		if e == m.cur {
			// The message scrolls before the field is cut.
			f.EnsureVisible(len(body))
			f.MinBody = len(block) + 2*b2i(len(slots) > 1) // the markers
		}
		body = append(body, strings.Join(block, "\n"))
	}
	if len(m.entries) == 0 {
		body = append(body, m.th.Muted.Render("This form has no fields: Enter to review and send."))
	}
	f.Body = body
	return strings.Join(f.Lines(m.width, m.height), "\n")
}

// frame is the form's scrolling frame, made at the first view.
func (m *Model) frame() *dialog.Frame {
	if m.fr == nil {
		m.fr = dialog.New(m.th)
		m.fr.Tight = true // the form keeps its own blank rows
	}
	return m.fr
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

// headerLines is who asks and the title (the first pin lines, always in
// view), then the message, the description and the note about answers
// from last time.
func (m *Model) headerLines() (lines []string, pin int) {
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
	pin = len(out)
	// Each of these is one line, so it stays or scrolls whole.
	one := func(s string, st lipgloss.Style) { out = append(out, strings.Join(m.wrapText(s, st, 0), "\n")) }
	if msg := strings.TrimSpace(sanitize.Text(h.Message)); msg != "" {
		one(msg, m.th.Base)
	}
	if d := strings.TrimSpace(sanitize.Text(m.schema.Description)); d != "" {
		one(d, m.th.Muted)
	}
	if m.remembered != "" {
		one("↺ "+m.remembered, m.th.Info)
	}
	return append(out, ""), pin
}

// fieldLines draws one field: label with required marker, description,
// hints, secret warning, notes, then the widget (focused) or the current
// answer (not focused), then the error. The focused widget is made short
// enough for the whole field to take at most budget rows (0: no limit).
func (m *Model) fieldLines(e *entry, budget int) []string {
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
	if mark := m.editingMark(f.Key); mark != "" {
		label += m.ink.accent.render(mark)
	}
	if e.remembered {
		note := " ↺ from last time"
		if f.HasDefault {
			note += " · default " + sanitize.Line(defaultLabel(f.Default))
		}
		label += m.ink.muted.render(note)
	}
	out := []string{strings.Repeat(" ", indent-2) + marker + label}
	if focused || e.err != nil {
		if d := strings.TrimSpace(sanitize.Text(f.Description)); d != "" {
			out = append(out, m.wrapText(d, m.th.Muted, indent)...)
		}
		if hints := f.Hints(); len(hints) > 0 {
			out = append(out, m.wrapText(strings.Join(hints, " · "), m.th.Muted, indent)...)
		}
		if focused && len(e.suggest) > 0 && !f.Secret {
			recent := make([]string, len(e.suggest))
			for i, s := range e.suggest {
				recent[i] = sanitize.Line(s)
			}
			out = append(out, m.wrapText("recent: "+strings.Join(recent, " · ")+" (ctrl+e completes)", m.th.Muted, indent)...)
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
	if focused && m.showPattern {
		for _, p := range []*schema.Field{f, f.Item} {
			if p != nil && p.Pattern != "" {
				out = append(out, m.wrapText("required format (ECMAScript pattern): "+p.PatternText(), m.th.Muted, indent)...)
			}
		}
	}
	var after []string
	if why := e.limitReached(); focused && why != "" {
		after = append(after, m.wrapText(why, m.th.Notice, indent)...)
	}
	if e.err != nil {
		after = append(after, m.wrapText("✗ "+sanitize.Line(e.err.Error()), m.th.Danger, indent)...)
	}
	after = append(after, "")
	if focused {
		m.ready(e)
		for _, l := range strings.Split(maskInvisible(m.fitWidget(e, budget-len(out)-len(after))), "\n") {
			out = append(out, strings.Repeat(" ", indent)+l)
		}
	} else {
		out = append(out, strings.Repeat(" ", indent)+m.ink.secondary.render(e.answerText()))
	}
	return append(out, after...)
}

// maskInvisible replaces any bidi control or invisible character left in a
// widget's drawing (text the user typed or pasted) with U+FFFD, one cell
// wide, so the widget's cursor and width stay right. Escape codes are the
// widget's own styling and pass; the text input drops control characters
// itself.
func maskInvisible(s string) string {
	return strings.Map(func(r rune) rune {
		if sanitize.Visible(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

// limitReached says why input stops: the text is as long as maxLength
// allows, or as many options are picked as maxItems allows.
func (e *entry) limitReached() string {
	f := e.f
	switch f.Kind {
	case schema.KindString, schema.KindNumber, schema.KindInteger:
		if f.MaxLength != nil && *f.MaxLength > 0 && utf8.RuneCountInString(e.text) >= *f.MaxLength {
			return fmt.Sprintf("%d of %d characters: the most this field takes", *f.MaxLength, *f.MaxLength)
		}
	case schema.KindMultiSelect:
		if f.MaxItems != nil && *f.MaxItems > 0 && len(e.picks) >= *f.MaxItems {
			return fmt.Sprintf("%d of %d picked: the most allowed; unpick one to pick another", len(e.picks), *f.MaxItems)
		}
	}
	return ""
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
	case f.Kind == schema.KindConst:
		return wire(f.Const) + " (fixed)"
	case f.Kind == schema.KindList:
		vs := schema.Lines(e.input())
		if len(vs) == 0 {
			return "(empty)"
		}
		return sanitize.Line(strings.Join(vs, ", "))
	}
	if e.text == "" {
		return "(empty)"
	}
	if v, err := e.value(); err == nil && v != nil && f.Kind != schema.KindString {
		return wire(v) // a number as it is sent: 8000, not 8e3
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

// reviewLines lists every answer before sending, exactly as it will be
// sent: the JSON value (numbers in JSON's spelling, strings quoted), with
// an option's title beside its value, and a written-in "Other" answer
// under the question it answers.
func (m *Model) reviewLines() []string {
	out := []string{m.th.Accent.Render("Review your answers"), ""}
	for _, e := range m.slots() {
		if e.companion && m.ownerOf(e).choice == otherChoice {
			continue // shown on its select's line
		}
		label, ans := e.f.Label(), reviewAnswer(e)
		if e.other != nil && e.choice == otherChoice {
			label = e.f.Label()
			ans = reviewAnswer(e.other) + m.ink.muted.render(" (your own answer, sent as "+sanitize.Line(e.other.f.Key)+")")
		}
		out = append(out, m.wrapText(m.th.Bold.Render(label+": ")+ans, lipgloss.NewStyle(), 2)...)
	}
	return append(out, "")
}

// reviewAnswer is the entry's value as sent.
func reviewAnswer(e *entry) string {
	v, err := e.value()
	switch {
	case err != nil:
		return "✗ " + sanitize.Line(err.Error())
	case v == nil && e.f.SendNull:
		return "null"
	case v == nil:
		return "(no answer: left out)"
	}
	s := wire(v)
	if str, ok := v.(string); ok && e.f.Kind == schema.KindSelect {
		if t := titleOf(e.f, str); t != sanitize.Line(str) {
			s += " (" + t + ")"
		}
	}
	return s
}

// wire is v as JSON, as it goes to the agent, made safe to draw.
func wire(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "?"
	}
	return sanitize.Line(strings.TrimSuffix(b.String(), "\n"))
}

// footerLines is the error summary, and the key line or the discard
// question.
func (m *Model) footerLines() (foot []string, keys string) {
	if m.problem != "" && !m.reviewing {
		foot = m.wrapText(sanitize.Line(m.problem), m.th.Danger, 0)
	}
	line := m.help.ShortHelpView(m.helpKeys())
	if m.inGrace() {
		line = "" // the keys count once they are shown (graceTick redraws)
	}
	if m.confirming {
		line = m.th.Warning.Render("Discard what you typed and "+string(m.pending)+"? ") + line
	}
	return foot, line
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// defaultLabel is a default as the note beside a remembered answer shows
// it: a yes/no as the form shows one, a list joined.
func defaultLabel(v any) string {
	switch d := v.(type) {
	case bool:
		if d {
			return "Yes"
		}
		return "No"
	case []string:
		return strings.Join(d, ", ")
	}
	return defaultText(v)
}
