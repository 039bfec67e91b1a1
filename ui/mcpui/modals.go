package mcpui

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/urlconsent"
)

// modal is a question waiting in the queue: the server's (a form, a URL)
// or elicit's own (retry a call). Only the front one gets keys, and only
// when the arbiter says so.
type modal interface {
	question() *question.Question // nil for elicit's own
	update(tea.Msg) tea.Cmd
	view(width, height int) string
	done() bool
	setPosition(index, total int)
	draft() string
	kind() string // for the docked line: "a form question"
}

// keyUser is a modal that says which keys mean something to it; the text
// it has no use for is typing, and goes where the user types
// (focus.Unused).
type keyUser interface{ usesKey(k tea.KeyPressMsg) bool }

// noGrace: the arbiter owns the grace rule, not the widgets.
const noGrace = -1

type formModal struct {
	q    *question.Question
	form *forms.Model
	hdr  forms.Header
	th   *theme.Theme
}

func newFormModal(q *question.Question, server string, th *theme.Theme) *formModal {
	h := forms.Header{Agent: server, ToolCall: q.From.Tool, Message: q.Message, Index: 1, Total: 1}
	return &formModal{q: q, hdr: h, th: th, form: forms.NewModel(q.Schema, h, forms.Options{Theme: th, Grace: noGrace,
		Prefill: q.Memory.Prefill, RememberedAt: q.Memory.PrefillAt, Suggestions: q.Memory.Suggestions})}
}

func (f *formModal) question() *question.Question { return f.q }
func (f *formModal) update(msg tea.Msg) tea.Cmd   { return f.form.Update(msg) }
func (f *formModal) done() bool                   { _, ok := f.form.Done(); return ok }
func (f *formModal) kind() string                 { return "a form question" }

func (f *formModal) view(width, height int) string {
	f.form.SetSize(width-4, height-2)
	return f.th.Modal.Width(width).Render(f.form.View())
}

func (f *formModal) setPosition(i, n int) {
	f.hdr.Index, f.hdr.Total = i, n
	f.form.SetHeader(f.hdr)
}

func (f *formModal) outcome() question.Outcome {
	out, _ := f.form.Done()
	if out.Action != question.Accept {
		out.Draft = f.draft()
	}
	return out
}

// draft is what the user entered, so a form closed from outside loses
// nothing silently.
func (f *formModal) draft() string { return f.form.DraftText() }

// urlModal is a URL consent screen for a question, or for a pending flow
// the user reopens (reopen: opening it answers nothing).
type urlModal struct {
	q       *question.Question
	consent *urlconsent.Consent
	hdr     urlconsent.Header
	reopen  bool
}

func newURLModal(q *question.Question, server string, th *theme.Theme) *urlModal {
	h := urlconsent.Header{Agent: server, ToolCall: q.From.Tool, Message: q.Message, Visits: q.Memory.Visits, Index: 1, Total: 1}
	return &urlModal{q: q, hdr: h, consent: urlconsent.NewConsent(q.Report, h, th, 0, nil)}
}

func (u *urlModal) question() *question.Question {
	if u.reopen {
		return nil
	}
	return u.q
}
func (u *urlModal) update(msg tea.Msg) tea.Cmd { return u.consent.Update(msg) }
func (u *urlModal) done() bool                 { _, ok := u.consent.Done(); return ok }
func (u *urlModal) draft() string              { return "" }
func (u *urlModal) kind() string               { return "to open a URL" }

// usesKey: the consent screen's letters (c, d); other text is typing.
func (u *urlModal) usesKey(k tea.KeyPressMsg) bool { return u.consent.Uses(k) }

func (u *urlModal) view(width, height int) string {
	u.consent.SetSize(width, height)
	return u.consent.View()
}

func (u *urlModal) setPosition(i, n int) {
	u.hdr.Index, u.hdr.Total = i, n
	u.consent.SetHeader(u.hdr)
}

// retryModal offers a call again once the URL flows it needed are done.
// Enter retries, Esc does not: a single key, but it only re-runs what the
// user ran already.
type retryModal struct {
	spec   callSpec
	th     *theme.Theme
	picked *bool
	pos    string
}

func newRetryModal(spec callSpec, th *theme.Theme) *retryModal {
	return &retryModal{spec: spec, th: th}
}

func (r *retryModal) question() *question.Question { return nil }
func (r *retryModal) done() bool                   { return r.picked != nil }
func (r *retryModal) draft() string                { return "" }
func (r *retryModal) kind() string                 { return "to retry a call" }
func (r *retryModal) setPosition(i, n int) {
	r.pos = ""
	if n > 1 {
		r.pos = fmt.Sprintf(" · %d of %d", i, n)
	}
}

func (r *retryModal) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch k.String() {
	case "enter":
		yes := true
		r.picked = &yes
	case "esc", "ctrl+c", "n":
		no := false
		r.picked = &no
	}
	return nil
}

func (r *retryModal) view(width, _ int) string {
	body := r.th.ModalTitle.Render("Retry the call?"+r.pos) + "\n\n" +
		"The URL flows " + r.spec.tool.Display() + " needed are complete.\n\n" +
		r.th.Key.Render("enter") + r.th.KeyHelp.Render(" run it again · ") + r.th.Key.Render("esc") + r.th.KeyHelp.Render(" no")
	return r.th.Modal.Width(width).Render(body)
}

// front is the modal in front, or nil.
func (m *Model) front() modal {
	if len(m.queue) == 0 {
		return nil
	}
	return m.queue[0]
}

func (m *Model) renumber() {
	for i, x := range m.queue {
		x.setPosition(i+1, len(m.queue))
	}
}

// push adds a modal; deliberate ones (the user opened them) go in front
// and take the keys at once, the others queue and ask the arbiter.
func (m *Model) push(md modal, deliberate bool) tea.Cmd {
	if deliberate {
		m.queue = append([]modal{md}, m.queue...)
		m.renumber()
		return m.arb.Front(true)
	}
	m.queue = append(m.queue, md)
	m.renumber()
	if m.front() == md {
		return m.arb.Front(false)
	}
	return nil
}

// remove takes a modal out; the next one asks the arbiter.
func (m *Model) remove(md modal) tea.Cmd {
	wasFront := m.front() == md
	for i, x := range m.queue {
		if x == md {
			m.queue = append(m.queue[:i], m.queue[i+1:]...)
			break
		}
	}
	m.renumber()
	if m.front() == nil {
		m.arb.Empty()
		return nil
	}
	if wasFront {
		return m.arb.Front(false)
	}
	return nil
}

func (m *Model) byQuestion(q *question.Question) modal {
	for _, x := range m.queue {
		if q != nil && x.question() == q {
			return x
		}
	}
	return nil
}

// ask queues a new question of the server.
func (m *Model) ask(q *question.Question) tea.Cmd {
	if q.Kind == question.URL {
		return m.push(newURLModal(q, m.server, m.th), false)
	}
	f := newFormModal(q, m.server, m.th)
	return tea.Batch(m.push(f, false), f.form.Init())
}

// modalUpdate hands a message to the front modal and acts once it is done.
func (m *Model) modalUpdate(md modal, msg tea.Msg) tea.Cmd {
	cmd := md.update(msg)
	if !md.done() {
		return cmd
	}
	return tea.Batch(cmd, m.resolve(md))
}

// resolve acts on a modal that is done.
func (m *Model) resolve(md modal) tea.Cmd {
	cmd := m.remove(md)
	switch md := md.(type) {
	case *formModal:
		return tea.Batch(cmd, m.changes(m.core.Answer(md.q, md.outcome())))
	case *urlModal:
		out, _ := md.consent.Done()
		switch {
		case md.consent.OpensBrowser():
			u := md.consent.URL()
			o := m.opts.Opener
			return tea.Batch(cmd, func() tea.Msg { return openedMsg{md: md, err: o.Open(u)} })
		case out.Action == question.Accept: // the user opened it themselves
			return tea.Batch(cmd, m.opened(openedMsg{md: md}))
		case md.reopen:
			return cmd
		case out.Action == question.Decline:
			return tea.Batch(cmd, m.changes(m.core.Answer(md.q, question.Outcome{Action: question.Decline})))
		}
		return tea.Batch(cmd, m.changes(m.core.Answer(md.q, question.Outcome{Action: question.Cancel})))
	case *retryModal:
		if *md.picked {
			again := md.spec
			again.retry = true
			return tea.Batch(cmd, m.startOrQueue(again))
		}
	}
	return cmd
}

// openedMsg reports the browser hand-off of a consented URL.
type openedMsg struct {
	md  *urlModal
	err error
}

// opened answers the server once its URL is open; if the browser could
// not be started, the question comes back with the reason.
func (m *Model) opened(msg openedMsg) tea.Cmd {
	md := msg.md
	if msg.err != nil {
		remote := errors.Is(msg.err, urlconsent.ErrRemote)
		if !remote {
			m.tr.notice("could not open the browser: "+sanitize.Text(msg.err.Error()), true)
		}
		md.consent.OpenFailed(msg.err.Error(), remote)
		return m.push(md, true)
	}
	if md.reopen {
		m.tr.info("opened " + md.q.Report.Site() + " again")
		return nil
	}
	return m.changes(m.core.Answer(md.q, question.Outcome{Action: question.Accept}))
}
