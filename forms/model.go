package forms

import (
	"encoding/json"
	"reflect"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/internal/dialog"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/theme"
)

// Header says who asks and where the form stands in the queue: "<Agent>
// asks", the tool call's title when the request is scoped to one, "1 of 3"
// when Total > 1, and the agent's message. The form sanitizes all of it.
type Header struct {
	Agent, ToolCall, Message string
	Index, Total             int // Index is 1-based
}

// Options tune a Model. The zero value is usable.
type Options struct {
	Theme *theme.Theme // nil: a dark theme honouring NO_COLOR
	// Grace is how long after NewModel (or Focus) keys are ignored, so a
	// keystroke meant for something else cannot answer the form; 0 is
	// DefaultGrace, negative is none (a host that decides itself when a
	// question may take keys, or scripted input).
	Grace time.Duration
	Now   func() time.Time // the clock for Grace; nil: time.Now
	// Prefill holds the answers the user gave this form last time
	// (RememberedAt): they replace the defaults as the starting values,
	// each checked against the field first. Nothing is ever submitted
	// without the user.
	Prefill      map[string]json.RawMessage
	RememberedAt time.Time
	// Suggestions are recent answers to text fields of the same name, by
	// key, newest first; they complete as you type.
	Suggestions map[string][]string
}

// DefaultGrace is how long a new form ignores keys, so a keystroke meant
// for the prompt cannot answer it.
const DefaultGrace = 400 * time.Millisecond

// Model is one elicitation form, hosted by the root bubbletea model as a
// plain child: the root calls Init once, Update with every message while
// the form is in front, View to draw it, and Done after each Update.
type Model struct {
	remembered string // "answers from last time (12 Nov)", when prefilled
	schema     *schema.Schema
	header     Header
	th         *theme.Theme
	km         *huh.KeyMap
	hth        huh.Theme // the huh theme widgets are built with
	ink        *inks     // the theme's line styles, for View
	grace      time.Duration
	now        func() time.Time
	opened     time.Time
	entries    []*entry
	cur        *entry // the focused entry (possibly a companion)

	keys        formKeys
	help        help.Model
	reviewing   bool
	confirming  bool            // "discard what you typed? y/n"
	pending     question.Action // what y confirms: Decline or Cancel
	showPattern bool            // the focused field's pattern is shown (ctrl+g)
	problem     string          // summary shown when submit found errors

	done    bool
	outcome question.Outcome
	initial map[string]any

	width, height int
	fr            *dialog.Frame // the scrolling frame, made at the first view

	editing map[string]string // field key -> who edits it elsewhere (SetEditing)
}

// NewModel builds the form for s. The grace period starts now.
func NewModel(s *schema.Schema, h Header, o Options) *Model {
	m := &Model{schema: s, header: h, th: o.Theme, grace: o.Grace, now: o.Now}
	if m.th == nil {
		m.th = theme.New(true, theme.NoColor())
	}
	if m.grace == 0 {
		m.grace = DefaultGrace
	}
	if m.now == nil {
		m.now = time.Now
	}
	m.opened = m.now()
	m.km = keyMap()
	m.keys = defaultFormKeys()
	m.hth, m.ink = stylesFor(m.th)
	m.help = m.newHelp()
	m.entries = buildEntries(s)
	m.remembered = m.prefill(o.Prefill, o.RememberedAt)
	for _, e := range m.entries {
		e.suggest = o.Suggestions[e.f.Key]
	}
	if f := m.focusable(); len(f) > 0 {
		m.cur = f[0]
	}
	m.initial = m.Draft()
	m.SetSize(80, 0)
	return m
}

// keyMap is huh's default with Ctrl+D (decline here) no longer paging
// lists: PgUp and PgDn page instead. huh's own filter is off: a list long
// enough to need one is a bigList, which shows the query.
func keyMap() *huh.KeyMap {
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithDisabled())
	km.Select.Filter = key.NewBinding(key.WithDisabled())
	km.MultiSelect.Filter = key.NewBinding(key.WithDisabled())
	km.Select.HalfPageDown = key.NewBinding(key.WithKeys("pgdown"))
	km.Select.HalfPageUp = key.NewBinding(key.WithKeys("pgup"))
	km.MultiSelect.HalfPageDown = key.NewBinding(key.WithKeys("pgdown"))
	km.MultiSelect.HalfPageUp = key.NewBinding(key.WithKeys("pgup"))
	return km
}

// Init focuses the first field, building its widget. The other fields'
// widgets are built when they are first focused: View draws only the
// focused field with its widget.
func (m *Model) Init() tea.Cmd {
	if m.cur == nil {
		return m.graceTick()
	}
	m.ready(m.cur)
	return tea.Batch(m.cur.focus(), m.graceTick())
}

// graceTick redraws the form when its grace period ends: until then the
// key help is not shown, so what a person sees says when keys start to
// count (nil without a grace period).
func (m *Model) graceTick() tea.Cmd {
	left := m.grace - m.now().Sub(m.opened)
	if left <= 0 {
		return nil
	}
	return tea.Tick(left, func(time.Time) tea.Msg { return graceOver{m} })
}

// graceOver is graceTick's message: the keys of form m count from now on.
type graceOver struct{ m *Model }

// slots is the focus order: each entry, and a companion right after its
// select while "Other" is picked.
func (m *Model) slots() []*entry {
	var out []*entry
	for _, e := range m.entries {
		out = append(out, e)
		if e.otherPicked() {
			out = append(out, e.other)
		}
	}
	return out
}

// focusable is the slots the user can move to: a const field is shown but
// takes no input.
func (m *Model) focusable() []*entry {
	var out []*entry
	for _, e := range m.slots() {
		if e.f.Kind != schema.KindConst {
			out = append(out, e)
		}
	}
	return out
}

func (m *Model) index() int {
	for i, e := range m.focusable() {
		if e == m.cur {
			return i
		}
	}
	return 0
}

// SetSize tells the form how much room it has; height 0 means unlimited.
// The focused widget takes the new width when it is next drawn (see
// ready), so calling SetSize on every frame costs nothing.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = max(width, 20), max(height, 0)
}

// Focus restarts the grace period: the root calls it when a queued form
// comes to the front, so a key meant for the previous question cannot
// answer this one, and runs the command it returns (the redraw that
// shows the key help when keys start to count again).
func (m *Model) Focus() tea.Cmd {
	m.opened = m.now()
	return m.graceTick()
}

// SetHeader replaces the header, for example when the queue moves.
func (m *Model) SetHeader(h Header) { m.header = h }

// Done returns the outcome once the user submitted, declined or
// cancelled.
func (m *Model) Done() (question.Outcome, bool) { return m.outcome, m.done }

// Draft returns what the user has entered so far, keyed like the content:
// typed values where they are valid, the raw text where they are not. The
// root shows it when the form is closed from outside (agent cancel or exit)
// so nothing typed is lost unseen.
func (m *Model) Draft() map[string]any {
	d := map[string]any{}
	for _, e := range m.slots() {
		if v := e.draft(); v != nil {
			d[e.f.Key] = v
		}
	}
	return d
}

// Dirty reports whether the user typed or changed anything since the form
// opened (prefilled defaults do not count): the host asks it before
// closing the form from outside, and the form itself asks before Esc or
// Ctrl+D discards such a draft.
func (m *Model) Dirty() bool { return !reflect.DeepEqual(m.Draft(), m.initial) }

// Typing reports whether the focused field takes text, so a host that has
// global keys (Ctrl+E, Ctrl+A, ...) should pass them to the form: in a text
// field they are readline's.
func (m *Model) Typing() bool {
	if m.done || m.reviewing || m.confirming || m.cur == nil {
		return false
	}
	return m.cur.takesText() || m.cur.isFiltering()
}

func (m *Model) finish(a question.Action, content map[string]any) {
	m.done, m.outcome = true, question.Outcome{Action: a, Content: content}
	m.confirming, m.reviewing = false, false
}
