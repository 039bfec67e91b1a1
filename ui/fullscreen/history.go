package fullscreen

import (
	tea "charm.land/bubbletea/v2"
)

// maxHistory is how many sent prompts ↑ can recall.
const maxHistory = 200

// history recalls sent prompts with ↑ and ↓, like a shell. What the user
// was typing is kept and comes back after the newest entry.
type history struct {
	entries []string
	pos     int    // len(entries) when not browsing
	draft   string // the text typed before browsing began
}

func (h *history) add(s string) {
	if n := len(h.entries); n == 0 || h.entries[n-1] != s {
		h.entries = append(h.entries, s)
		if len(h.entries) > maxHistory {
			h.entries = h.entries[1:]
		}
	}
	h.pos = len(h.entries)
}

// step moves by -1 (older) or +1 (newer) from the current text; ok is
// false when there is nowhere to go.
func (h *history) step(dir int, current string) (string, bool) {
	if h.pos == len(h.entries) {
		h.draft = current
	}
	next := h.pos + dir
	if next < 0 || next > len(h.entries) {
		return "", false
	}
	h.pos = next
	if next == len(h.entries) {
		return h.draft, true
	}
	return h.entries[next], true
}

// historyKey handles ↑ on the first line and ↓ on the last line of the
// prompt; other keys go on to the textarea.
func (m *agentPanel) historyKey(k tea.KeyPressMsg) bool {
	dir := 0
	switch k.String() {
	case "up":
		if m.input.Line() == 0 {
			dir = -1
		}
	case "down":
		if m.input.Line() == m.input.LineCount()-1 {
			dir = 1
		}
	}
	if dir == 0 {
		return false
	}
	text, ok := m.hist.step(dir, m.input.Value())
	if ok {
		m.input.SetValue(text)
	}
	return ok
}
