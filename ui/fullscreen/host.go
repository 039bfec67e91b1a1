package fullscreen

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui/attach"
)

// hostPanel is the full screen's source when it is attached to an AHP
// host (elicit attach): another terminal's session, whose open input
// requests are this screen's questions (attach.Source makes them
// questions and sends the answers back). Nothing else here takes keys, so
// a question has them as it comes (direct); the log above is what
// happened. It embeds the root it belongs to.
type hostPanel struct {
	*Model
	src   *attach.Source
	state string // where the connection is
}

// NewAttach returns the full screen of an AHP host's requests, read from
// src; Init starts reading. Of o, the agent's fields are not read.
func NewAttach(src *attach.Source, o Options) *Model {
	m := newRoot(o, "elicit attach", session.Policy{Peer: "host"})
	m.direct, m.grace, m.hostSays = true, o.Grace, true
	p := &hostPanel{Model: m, src: src, state: "connected"}
	m.src, m.drafts, m.name = p, src, src.Who()
	m.core.SetConn(src)
	mem := o.Memory
	m.core.SetMemory(session.Memory{History: mem.History, Audit: mem.Audit, Agent: mem.Agent})
	return m
}

// hostEventMsg carries an event of the host's.
type hostEventMsg struct {
	ev ahp.Event
	ok bool
}

// connect starts reading the host's events.
func (m *hostPanel) connect() tea.Cmd { return m.next() }

func (m *hostPanel) next() tea.Cmd {
	src := m.src
	return func() tea.Msg {
		ev, ok := src.Next(context.Background())
		return hostEventMsg{ev, ok}
	}
}

// handle hands the host's questions to the core and draws the rest.
func (m *hostPanel) handle(msg tea.Msg) (tea.Cmd, bool) {
	e, ok := msg.(hostEventMsg)
	if !ok {
		return nil, false
	}
	if !e.ok {
		e.ev = ahp.Closed{}
	}
	var cmds []tea.Cmd
	for _, ev := range m.src.Apply(e.ev) {
		switch ev := ev.(type) {
		case attach.Note:
			m.tr.info(ev.Text)
		case attach.Problem:
			m.tr.notice(ev.Text, true)
		case attach.Refused:
			m.tr.notice("the host refused: "+ev.Reason, true)
		case attach.Unshown:
			m.tr.notice("the host asked "+ev.What+" ("+ev.Reason+"); cancelling it", false)
		case attach.Status:
			m.state = ev.Text
		case attach.Ended:
			m.tr.info("the connection to the host ended")
			m.quitting = true
			return tea.Batch(append(cmds, tea.Quit)...), true
		case attach.Completed:
		default:
			cmds = append(cmds, m.changes(m.core.Apply(ev)))
		}
	}
	return tea.Batch(append(cmds, m.next())...), true
}

// panel says that no question waits, or that an answer is on its way.
func (m *hostPanel) panel(width, _ int) string {
	text := "no question waits: new ones appear here as the agent asks them"
	if m.src.Sending() {
		text = "sending your answer…"
	}
	return m.th.Border.Render(strings.Repeat("─", width)) + "\n" + m.th.Muted.Render(ansi.Truncate(text, width, "…"))
}

// header names the session and where the connection is.
func (m *hostPanel) header(w int) string {
	return m.th.Bold.Render(m.program) + m.th.Muted.Render(" · "+ansi.Truncate(m.name, w/2, "…")+" · "+m.state)
}

// quitKey quits while no question is open; ctrl+c too (back).
var quitKey = key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit"))

func (m *hostPanel) typing(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, quitKey) {
		return m.quit()
	}
	return nil
}

// back: a Ctrl+C with no question open quits at once (nothing is lost:
// the session goes on in the other terminal).
func (m *hostPanel) back(func(string) bool) (tea.Cmd, bool) { return m.quit(), true }

func (m *hostPanel) help() (short []key.Binding, full [][]key.Binding) {
	k := m.keys
	return []key.Binding{quitKey, k.Help}, [][]key.Binding{{shareSkip, shareTake, quitKey}, {k.PageUp, k.PageDown, k.Flows, k.Cancel, k.Suspend, k.Help}}
}

func (m *hostPanel) global(tea.KeyPressMsg) (tea.Cmd, bool) { return nil, false }
func (m *hostPanel) rest(tea.Msg) tea.Cmd                   { return nil }
func (m *hostPanel) status() []string                       { return nil }
func (m *hostPanel) busy() bool                             { return false }
func (m *hostPanel) stop() (tea.Cmd, bool)                  { return nil, false }
func (m *hostPanel) retry(string, bool) tea.Cmd             { return nil }
func (m *hostPanel) decided(action) tea.Cmd                 { return nil }
func (m *hostPanel) shutdown() tea.Cmd                      { return tea.Quit }
func (m *hostPanel) closeSource()                           { m.src.Close() }
func (m *hostPanel) endScrolls() bool                       { return true }
