package fullscreen

import (
	"errors"
	"reflect"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/internal/dialog"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/ui/internal/formsync"
	"github.com/elicit-dev/elicit/urlconsent"
)

// noGrace is the grace the modals get: the arbiter owns that rule.
const noGrace = -1

// formModal hosts a forms.Model for one elicitation in form mode.
type formModal struct {
	q    *question.Question
	form *forms.Model
	hdr  forms.Header
	th   *theme.Theme
	// sync, when the question is shared (elicit serve), carries drafts
	// to and from the other clients (share.go).
	sync   *formsync.Sync
	share  sharer
	focus  string // the field focused after the last key
	typing int    // the typing pause being waited for
	typed  bool   // the user changed the shared form (others' drafts alone are no loss)
	peers  *int   // the other clients attached to the session (Model.peers)
}

// newFormModal builds q's form; grace is the form's own (noGrace where the
// input arbiter rules), now its clock.
func newFormModal(q *question.Question, agent string, th *theme.Theme, grace time.Duration, now func() time.Time) *formModal {
	h := forms.Header{Agent: agent, ToolCall: q.From.Tool, Message: q.Message, Index: 1, Total: 1}
	return &formModal{q: q, hdr: h, th: th, form: forms.NewModel(q.Schema, h, forms.Options{Theme: th, Grace: grace, Now: now,
		Prefill: q.Memory.Prefill, RememberedAt: q.Memory.PrefillAt, Suggestions: q.Memory.Suggestions})}
}

func (f *formModal) question() *question.Question { return f.q }

// update hands msg to the form; once it is done, its outcome (with what
// was typed, when it was not accepted) answers the question.
func (f *formModal) update(msg tea.Msg) (action, tea.Cmd) {
	if handled, cmd := f.shared(msg); handled {
		return nil, cmd
	}
	var before map[string]any
	if _, key := msg.(tea.KeyPressMsg); key && f.sync != nil && !f.typed {
		before = f.form.Draft()
	}
	cmd := tea.Batch(f.form.Update(msg), f.afterShared(msg))
	if before != nil && !reflect.DeepEqual(before, f.form.Draft()) {
		f.typed = true
	}
	out, done := f.form.Done()
	if !done {
		return nil, cmd
	}
	if out.Action != question.Accept {
		out.Draft = f.draft()
	}
	return answerAct{f.q, out}, cmd
}

// keys: the form's fields take what is typed, and a shared form adds its
// own two (share.go).
func (f *formModal) keys() []key.Binding {
	if f.sync == nil {
		return []key.Binding{dialog.Text}
	}
	return []key.Binding{dialog.Text, shareSkip, shareTake}
}

// view frames the form (it draws no border of its own); a shared form
// says whose draft it holds back, and the keys it adds.
func (f *formModal) view(width, height int) string {
	notice, keys := "", ""
	if f.sync != nil {
		if n := f.sync.Notice(shareTake.Help().Key); n != "" {
			notice = f.th.Accent.Render(ansi.Truncate("⚑ "+n, width, "…")) + "\n"
			height--
		}
		if notice != "" || f.peers == nil || *f.peers > 0 { // alone, the keys are noise
			keys = "\n" + f.th.Muted.Render(ansi.Truncate(dialog.HelpLine([]key.Binding{shareSkip, shareTake}), width, "…"))
			height--
		}
	}
	f.form.SetSize(width-4, height-2)
	return notice + f.th.Modal.Width(width).Render(f.form.View()) + keys
}

func (f *formModal) setPosition(i, n int) {
	f.hdr.Index, f.hdr.Total = i, n
	f.form.SetHeader(f.hdr)
}

// draft is what the user entered, one "Label: value" line per field in
// the form's order, so a form closed from outside (agent cancel, turn
// cancel, agent exit) loses nothing silently; a shared form that only
// holds other clients' drafts has nothing of the user's to lose.
func (f *formModal) draft() string {
	if f.sync != nil && !f.typed {
		return ""
	}
	return f.form.DraftText()
}

// urlModal hosts a urlconsent.Consent for one elicitation in URL mode, or
// for a pending flow the user reopens (q is then the flow's question and
// reopen is set: opening it answers nothing).
type urlModal struct {
	q       *question.Question
	consent *urlconsent.Consent
	hdr     urlconsent.Header
	reopen  bool
}

// newURLModal builds q's consent screen; grace is the screen's own
// (noGrace where the input arbiter rules), now its clock.
func newURLModal(q *question.Question, agent string, th *theme.Theme, remote bool, grace time.Duration, now func() time.Time) *urlModal {
	h := urlconsent.Header{Agent: agent, ToolCall: q.From.Tool, Message: q.Message, Visits: q.Memory.Visits, Index: 1, Total: 1}
	switch {
	case grace == 0: // as a form's: 0 is the default
		grace = urlconsent.DefaultGrace
	case grace < 0:
		grace = 0
	}
	u := &urlModal{q: q, hdr: h, consent: urlconsent.NewConsent(q.Report, h, th, grace, now)}
	if remote { // over SSH: its QR code at once, in a view of its own
		u.consent.SetRemote()
	}
	return u
}

// fullScreen says whether the modal wants the whole terminal: the QR view
// of a link over SSH.
func (u *urlModal) fullScreen() bool { return u.consent.QRShown() }

func (u *urlModal) question() *question.Question {
	if u.reopen {
		return nil
	}
	return u.q
}
func (u *urlModal) draft() string       { return "" }
func (u *urlModal) keys() []key.Binding { return u.consent.Keys() }

// update hands msg to the consent screen; once the user chose, the URL
// goes to the browser first (the source hears accept only once that
// worked), or the source hears the answer. Reopening a pending flow
// answers nothing.
func (u *urlModal) update(msg tea.Msg) (action, tea.Cmd) {
	cmd := u.consent.Update(msg)
	out, done := u.consent.Done()
	switch {
	case !done:
		return nil, cmd
	case u.consent.OpensBrowser():
		return openAct{u}, cmd
	case out.Action == question.Accept: // the user opened it themselves
		return openedAct{u}, cmd
	case u.reopen:
		return closeAct{}, cmd
	case out.Action == question.Decline:
		return answerAct{u.q, question.Outcome{Action: question.Decline}}, cmd
	}
	return answerAct{u.q, question.Outcome{Action: question.Cancel}}, cmd
}

// view draws the consent screen (it draws its own frame).
func (u *urlModal) view(width, height int) string {
	u.consent.SetSize(width, height)
	return u.consent.View()
}

func (u *urlModal) setPosition(i, n int) {
	u.hdr.Index, u.hdr.Total = i, n
	u.consent.SetHeader(u.hdr)
}

// openedMsg reports the browser hand-off of a consented URL.
type openedMsg struct {
	md  *urlModal
	err error
}

func openURL(o urlconsent.Opener, md *urlModal) tea.Cmd {
	u := md.consent.URL()
	return func() tea.Msg { return openedMsg{md: md, err: o.Open(u)} }
}

// opened answers the agent once its URL is open; if the browser could not
// be started, the question comes back with the reason.
func (m *Model) opened(msg openedMsg) tea.Cmd {
	md := msg.md
	if msg.err != nil {
		// Nothing was opened: the agent hears nothing yet, and the screen
		// comes back with the reason, a copy key, the QR code over SSH, and
		// "I opened it myself".
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
