// Package attach is `elicit attach`: an Agent Host Protocol client that
// shows a session's open input requests in elicit's own forms and URL
// consent screen (the same validation, review and sanitizing), shares
// drafts with the other clients as the user moves between fields, and
// completes a request with the full final answers. It is its own root
// bubbletea model; RunAnswers answers without a terminal.
//
//	c, _ := ahp.Dial(ctx, ahp.ClientOptions{URL: url, Token: tok})
//	p := tea.NewProgram(attach.New(attach.Options{Conn: c}))
package attach

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/urlconsent"
)

// Conn is the client side of a session: *ahp.Client is one.
type Conn interface {
	Dispatch(a ahp.Action) error
	Next(ctx context.Context) (ahp.Event, bool)
	ID() string
}

// Options configure the model.
type Options struct {
	Conn    Conn
	Title   string // the session's name, for the header
	Opener  urlconsent.Opener
	NoColor bool
	Now     func() time.Time
	// Debounce is the typing pause after which the field being typed in is
	// sent as a draft (default 300 ms); leaving a field sends it at once.
	Debounce      time.Duration
	Width, Height int
	// Grace is how long a new question ignores keys (default: the forms'
	// own; a negative value none, for tests).
	Grace time.Duration
	// Memory prefills forms from last time and records answers.
	Memory Memory
	// URLs analyzes the URLs the host asks the user to open; nil: the
	// built-in list of well-known domains.
	URLs *urlcheck.Analyzer
}

// Model is the root model of `elicit attach`.
type Model struct {
	o      Options
	th     *theme.Theme
	in     ahp.Inputs
	cur    *question
	log    []string
	status string
	notice string
	typing int // the generation of the last typing pause being waited for
	snap   *history.Snapshot
	width  int
	height int
	done   bool
}

// New returns the model; Init starts reading the connection.
func New(o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Debounce <= 0 {
		o.Debounce = 300 * time.Millisecond
	}
	if o.Opener == nil {
		o.Opener = urlconsent.BrowserOpener{}
	}
	m := &Model{o: o, th: theme.New(true, o.NoColor), status: "connected", width: 80, height: 24, snap: loadMemory(o.Memory.History)}
	if o.Width > 0 && o.Height > 0 {
		m.width, m.height = o.Width, o.Height
	}
	return m
}

// eventMsg carries one event of the connection.
type eventMsg struct{ ev ahp.Event }

// typedMsg ends a typing pause.
type typedMsg struct{ gen int }

// openedMsg reports the browser hand-off of a URL.
type openedMsg struct {
	q   *question
	err error
}

func (m *Model) next() tea.Cmd {
	c := m.o.Conn
	return func() tea.Msg {
		ev, ok := c.Next(context.Background())
		if !ok {
			return eventMsg{ev: ahp.Closed{}}
		}
		return eventMsg{ev: ev}
	}
}

// Init starts reading events.
func (m *Model) Init() tea.Cmd { return m.next() }

// Log is what happened, one sanitized line each (it is printed when the
// screen ends).
func (m *Model) Log() []string { return m.log }

func (m *Model) note(s string) { m.log = append(m.log, sanitize.Text(s)) }

// Update handles one message; I/O happens only in the commands it returns.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case eventMsg:
		cmd := m.event(msg.ev)
		if m.done {
			return m, tea.Batch(cmd, tea.Quit)
		}
		return m, tea.Batch(cmd, m.next())
	case typedMsg:
		if msg.gen == m.typing && m.cur != nil && m.cur.sync != nil {
			m.send(m.cur.sync.Changes(true))
		}
		return m, nil
	case openedMsg:
		return m, m.opened(msg)
	case memoryMsg:
		if msg.snap != nil {
			m.snap = msg.snap
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	if m.cur != nil {
		return m, m.cur.update(msg)
	}
	return m, nil
}

func (m *Model) send(chs []ahp.InputAnswerChanged) {
	for _, ch := range chs {
		_ = m.o.Conn.Dispatch(ch)
	}
}
