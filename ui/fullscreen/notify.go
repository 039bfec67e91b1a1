package fullscreen

import (
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/say"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// Notify says when a question that arrives rings the bell and sends a
// desktop notification.
type Notify string

// The notification preferences (the config file's notify key).
const (
	NotifyUnfocused Notify = "unfocused" // only while the terminal is in the background (the default)
	NotifyAlways    Notify = "always"
	NotifyNever     Notify = "never"
)

// notifyCmd tells the user a question arrived, when the preference and the
// terminal's focus say so: the bell, then OSC 9 and OSC 777 desktop
// notifications (terminals ignore the ones they do not know). The text is
// elicit's own, with the agent's name made safe.
func (m *Model) notifyCmd(q *question.Question) tea.Cmd {
	switch m.opts.Notify {
	case NotifyNever:
		return nil
	case NotifyAlways:
	default:
		if !m.blurred {
			return nil
		}
	}
	text := oscText(m.whoOf(q) + " asks a " + q.Kind.String() + " question")
	return tea.Raw("\a\x1b]9;" + text + "\x07\x1b]777;notify;elicit;" + text + "\x07")
}

// oscText keeps s safe inside an OSC string: one line, no controls, no ';'
// (OSC 777 splits on it).
func oscText(s string) string {
	b := []rune(sanitize.Line(s))
	for i, r := range b {
		if r == ';' {
			b[i] = ','
		}
	}
	return string(b)
}

// windowTitle shows how many questions wait, so a background tab tells.
func (m *Model) windowTitle() string {
	t := m.program + " · " + m.name
	if n := m.pendingRequests(); n > 0 {
		t = "(" + say.Plural(n, "question", "questions") + ") " + t
	}
	return oscText(t)
}
