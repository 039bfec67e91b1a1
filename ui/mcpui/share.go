package mcpui

import (
	"context"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ui/internal/share"
)

// The MCP full screen in the user's inbox (Options.Share): its questions
// are mirrored by the share (the core's observer), and an answer given in
// the inbox closes the question here, saying so, and goes to the server
// through the core. Drafts are not shown here (the full screen's forms
// do that: this screen is to become one with it).

// shareMsg is something another client did.
type shareMsg struct{ v any }

func shareNext(s *share.Share) tea.Cmd {
	if s == nil {
		return nil
	}
	return func() tea.Msg {
		v, ok := s.Next(context.Background())
		if !ok {
			return nil
		}
		return shareMsg{v: v}
	}
}

// onShare applies another client's answer, and waits for the next.
func (m *Model) onShare(msg shareMsg) tea.Cmd {
	next := shareNext(m.opts.Share)
	a, ok := msg.v.(share.Answer)
	if !ok {
		return next
	}
	var cmd tea.Cmd
	if md := m.byQuestion(a.Q); md != nil {
		cmd = m.remove(md)
		text := "answered " + a.Where() + ": " + string(a.Out.Action)
		if d := md.draft(); d != "" {
			text += "\nwhat you had entered:" + d
		}
		m.tr.info(text)
	}
	if !slices.Contains(m.core.Questions(), a.Q) {
		return tea.Batch(cmd, next) // answered here first: the server has that answer
	}
	return tea.Batch(cmd, m.changes(m.core.Answer(a.Q, a.Out)), next)
}
