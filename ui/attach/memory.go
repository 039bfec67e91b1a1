package attach

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/session"
)

// Memory is what attach remembers across sessions, as the agent's own
// terminal does (session): the answers of accepted forms, offered
// the next time the same form is asked ("from last time", never sent
// unseen), recent answers to text fields as suggestions, and the sites
// opened. History nil remembers nothing (--no-history).
type Memory struct {
	History *history.Store
	Agent   string // the key forms are remembered under
}

// memoryMsg carries history as it stands after a write.
type memoryMsg struct{ snap *history.Snapshot }

// loadMemory reads history once, before the program starts (New), so no
// read happens in Update; it is read again after each write.
func loadMemory(h *history.Store) *history.Snapshot {
	if h == nil {
		return nil
	}
	snap, err := h.Snapshot()
	if err != nil {
		return nil
	}
	return &snap
}

// remembered fills a form's options from history: last time's answers and
// text suggestions. Other clients' drafts, applied after, take precedence.
func (m *Model) remembered(s *schema.Schema, o forms.Options) forms.Options {
	if m.snap == nil || s == nil {
		return o
	}
	if r, ok := m.snap.Answers(m.o.Memory.Agent, session.FormFingerprint(s)); ok {
		o.Prefill, o.RememberedAt = r.Values, r.At
	}
	for _, f := range s.Fields {
		if f.Kind != schema.KindString || f.Secret {
			continue
		}
		if sug := m.snap.Suggestions(m.o.Memory.Agent, f.Key, 5); len(sug) > 0 {
			if o.Suggestions == nil {
				o.Suggestions = map[string][]string{}
			}
			o.Suggestions[f.Key] = sug
		}
	}
	return o
}

// rememberForm records an accepted form's answers, off the loop.
func (m *Model) rememberForm(s *schema.Schema, content map[string]any) tea.Cmd {
	h, agent := m.o.Memory.History, m.o.Memory.Agent
	if h == nil || s == nil {
		return nil
	}
	raw, err := json.Marshal(content)
	if err != nil {
		return nil
	}
	var values map[string]json.RawMessage
	if json.Unmarshal(raw, &values) != nil {
		return nil
	}
	return func() tea.Msg {
		if h.RememberAnswers(agent, session.FormFingerprint(s), values, session.Secret(s)) != nil {
			return nil
		}
		return memoryMsg{snap: loadMemory(h)}
	}
}

// rememberSite records that the user opened site, off the loop.
func (m *Model) rememberSite(site string) tea.Cmd {
	h, now := m.o.Memory.History, m.o.Now()
	if h == nil || site == "" {
		return nil
	}
	return func() tea.Msg {
		if h.RecordSite(site, now) != nil {
			return nil
		}
		return memoryMsg{snap: loadMemory(h)}
	}
}
