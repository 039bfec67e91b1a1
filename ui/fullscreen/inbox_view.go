package fullscreen

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/focus"
	"github.com/elicit-dev/elicit/ui/internal/say"
)

// The inbox's list: a question a row of two lines (what kind it is, the
// first line of its message and how long it has waited; then who asks:
// the agent, its session and directory), oldest first. ↑/↓ select, Enter
// opens the question in its dialog, Ctrl+C there puts it back. Letters do
// nothing here: prose typed at the list while a question arrives is not
// an answer, and an Enter within that typing opens the question docked,
// under the type-ahead rule (focus.Arbiter).

// The list's keys (none is a letter alone).
var (
	inboxSelect = key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "select"))
	inboxOpen   = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open"))
	inboxBack   = key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "back to the list; at the list, quit"))
)

// list is the questions waiting, oldest first.
func (p *inboxPanel) list() []*question.Question {
	var out []*question.Question
	var items []inbox.Item
	byID := map[string]*question.Question{}
	for _, q := range p.core.Questions() {
		if r := p.rows[q]; r != nil {
			items = append(items, r.item)
			byID[r.item.ID] = q
		}
	}
	inbox.Sort(items)
	for _, it := range items {
		out = append(out, byID[it.ID])
	}
	return out
}

// selected is the selected row's index in rows, -1 when there is none;
// a selection that left the list moves to the row now at its place.
func (p *inboxPanel) selected(rows []*question.Question) int {
	if len(rows) == 0 {
		p.sel = nil
		return -1
	}
	for i, q := range rows {
		if q == p.sel {
			p.selAt = i
			return i
		}
	}
	p.selAt = min(p.selAt, len(rows)-1)
	p.sel = rows[p.selAt]
	return p.selAt
}

// typing takes the list's keys.
func (p *inboxPanel) typing(k tea.KeyPressMsg) tea.Cmd {
	rows := p.list()
	i := p.selected(rows)
	switch s := k.String(); {
	case i < 0:
	case s == "up":
		p.sel = rows[(i+len(rows)-1)%len(rows)]
	case s == "down":
		p.sel = rows[(i+1)%len(rows)]
	case key.Matches(k, inboxOpen):
		return p.open(p.sel)
	}
	if k.Text != "" {
		p.prose = p.now() // typing, not choosing
	}
	return nil
}

// open shows q in its dialog: at once after a deliberate Enter, docked
// (until the keyboard is idle, or Tab) after one that ended typing. A
// question docked before goes back to the list.
func (p *inboxPanel) open(q *question.Question) tea.Cmd {
	for _, md := range p.queue.items {
		if md.question() != nil {
			p.park(md)
		}
	}
	md, init := p.parked[q], tea.Cmd(nil)
	delete(p.parked, q)
	if md == nil {
		md, init = p.questionModal(q)
	}
	deliberate := p.now().Sub(p.prose) >= focus.TypingWindow
	return tea.Batch(p.push(md, deliberate), init)
}

// park puts an open question back in the list, as it is: what was typed
// in it stays, and goes to the other clients as a draft now.
func (p *inboxPanel) park(md modal) {
	if f, ok := md.(*formModal); ok && f.sync != nil {
		f.share.Send(f.sync.Changes(true))
	}
	p.remove(md)
	p.parked[md.question()] = md
}

// stop is Ctrl+C with a question open: it goes back to the list, still
// waiting.
func (p *inboxPanel) stop() (tea.Cmd, bool) {
	md := p.queue.front()
	if md == nil || md.question() == nil {
		return nil, false
	}
	p.sel = md.question()
	p.park(md)
	return nil, true
}

// back: Ctrl+C at the list quits at once (nothing is lost: every question
// goes on waiting in its session).
func (p *inboxPanel) back(func(string) bool) (tea.Cmd, bool) { return p.quit(), true }

func (p *inboxPanel) help() (short []key.Binding, full [][]key.Binding) {
	k := p.keys
	return []key.Binding{inboxOpen, inboxBack, k.Help},
		[][]key.Binding{{inboxSelect, inboxOpen, inboxBack, k.Answer}, {shareSkip, shareTake}, {k.PageUp, k.PageDown, k.Flows, k.Suspend, k.Help}}
}

// header says how many questions wait, in how many sessions.
func (p *inboxPanel) header(w int) string {
	text := " · " + say.Plural(len(p.list()), "question", "questions") + " waiting · " + say.Plural(len(p.srcs), "session", "sessions")
	return p.th.Bold.Render("elicit inbox") + p.th.Muted.Render(ansi.Truncate(text, max(0, w-12), "…"))
}

func (p *inboxPanel) status() []string { return nil }

// panel draws the list: as many rows as room takes, the selected one in
// view.
func (p *inboxPanel) panel(width, room int) string {
	th := p.th
	out := []string{th.Border.Render(strings.Repeat("─", width))}
	rows := p.list()
	sel := p.selected(rows)
	if len(rows) == 0 {
		out = append(out, th.Muted.Render(ansi.Truncate("no question waits: new ones appear here as your agents ask them", width, "…")))
		return strings.Join(out, "\n")
	}
	fit := max(1, (room-1)/2)
	first := max(0, min(sel-fit/2, len(rows)-fit))
	for i := first; i < len(rows) && i < first+fit; i++ {
		out = append(out, p.row(rows[i], i == sel, width)...)
	}
	return strings.Join(out, "\n")
}

// row is q's two lines.
func (p *inboxPanel) row(q *question.Question, selected bool, w int) []string {
	th, it := p.th, p.rows[q].item
	cursor := "  "
	if selected {
		cursor = th.Selected.Render("> ")
	}
	kind := fmt.Sprintf("%-11s", kindName(it.Kind))
	style := th.Info
	if it.Kind == ahp.MetaPermission {
		style = th.Warning
	}
	age := " " + waited(p.now().Sub(it.WaitingSince))
	msg := it.Message
	if it.Kind == ahp.MetaPermission && it.Tool != "" {
		msg = it.Tool
	}
	room := max(1, w-2-11-ansi.StringWidth(age))
	first := cursor + style.Render(kind) + ansi.Truncate(msg, room, "…")
	pad := max(0, w-ansi.StringWidth(first)-ansi.StringWidth(age))
	second := "  " + th.Muted.Render(ansi.Truncate(p.asker(it), max(1, w-2), "…"))
	return []string{first + strings.Repeat(" ", pad) + th.Muted.Render(age), second}
}

// kindName names a question's kind in the list.
func kindName(k string) string {
	if k == ahp.MetaURL {
		return "URL"
	}
	return k
}

// asker is who asks it: the agent, the session's title when it says more,
// and the directory (~ for the home directory).
func (p *inboxPanel) asker(it inbox.Item) string {
	parts := []string{it.Agent}
	if it.Title != "" && it.Title != it.Agent {
		parts = append(parts, it.Title)
	}
	if d := it.Cwd; d != "" {
		if p.home != "" && (d == p.home || strings.HasPrefix(d, p.home+"/")) {
			d = "~" + d[len(p.home):]
		}
		parts = append(parts, d)
	} else if s := it.Session; s != nil && s.Source.URL != "" {
		parts = append(parts, s.Source.URL)
	}
	return strings.Join(parts, " · ")
}

// where names a session for the log.
func (p *inboxPanel) where(s *inbox.Session) string {
	return p.asker(s.Item(ahp.Request{}, time.Time{}))
}

// questionLabel names a question for the log: its kind and message's start.
func questionLabel(q *question.Question) string {
	msg, _, _ := strings.Cut(strings.TrimSpace(q.Message), "\n")
	return q.Kind.String() + " " + fmt.Sprintf("%q", sanitizeSummary(msg, 50))
}
