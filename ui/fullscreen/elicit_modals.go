package fullscreen

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/ui/internal/formsync"
	"github.com/elicit-dev/elicit/ui/internal/share"
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
	share  *share.Share
	focus  string // the field focused after the last key
	typing int    // the typing pause being waited for
}

func newFormModal(q *question.Question, agent string, th *theme.Theme) *formModal {
	h := forms.Header{Agent: agent, ToolCall: q.From.Tool, Message: q.Message, Index: 1, Total: 1}
	return &formModal{q: q, hdr: h, th: th, form: forms.NewModel(q.Schema, h, forms.Options{Theme: th, Grace: noGrace, Prefill: q.Memory.Prefill, RememberedAt: q.Memory.PrefillAt, Suggestions: q.Memory.Suggestions})}
}

func (f *formModal) question() *question.Question { return f.q }
func (f *formModal) update(msg tea.Msg) tea.Cmd {
	if handled, cmd := f.shared(msg); handled {
		return cmd
	}
	cmd := f.form.Update(msg)
	return tea.Batch(cmd, f.afterShared(msg))
}
func (f *formModal) done() bool { _, ok := f.form.Done(); return ok }

// outcome is the form's answer as the core takes it.
func (f *formModal) outcome() question.Outcome {
	out, _ := f.form.Done()
	if out.Action != question.Accept {
		out.Draft = f.draft()
	}
	return out
}

// view frames the form (it draws no border of its own).
func (f *formModal) view(width, height int) string {
	notice := ""
	if f.sync != nil {
		if n := f.sync.Notice(shareTakeKey); n != "" {
			notice = f.th.Accent.Render(ansi.Truncate("⚑ "+n, width, "…")) + "\n"
			height--
		}
	}
	f.form.SetSize(width-4, height-2)
	return notice + f.th.Modal.Width(width).Render(f.form.View())
}

func (f *formModal) setPosition(i, n int) {
	f.hdr.Index, f.hdr.Total = i, n
	f.form.SetHeader(f.hdr)
}

// draft is what the user entered, one "Label: value" line per field in
// the form's order, so a form closed from outside (agent cancel, turn
// cancel, agent exit) loses nothing silently.
func (f *formModal) draft() string { return f.form.DraftText() }

// urlModal hosts a urlconsent.Consent for one elicitation in URL mode, or
// for a pending flow the user reopens (q is then the flow's question and
// reopen is set: opening it answers nothing).
type urlModal struct {
	q       *question.Question
	consent *urlconsent.Consent
	hdr     urlconsent.Header
	reopen  bool
}

func newURLModal(q *question.Question, agent string, th *theme.Theme, remote bool) *urlModal {
	h := urlconsent.Header{Agent: agent, ToolCall: q.From.Tool, Message: q.Message, Visits: q.Memory.Visits, Index: 1, Total: 1}
	u := &urlModal{q: q, hdr: h, consent: urlconsent.NewConsent(q.Report, h, th, 0, nil)}
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
func (u *urlModal) update(msg tea.Msg) tea.Cmd { return u.consent.Update(msg) }
func (u *urlModal) done() bool                 { _, ok := u.consent.Done(); return ok }
func (u *urlModal) draft() string              { return "" }

// usesKey: the consent screen's letters (c, d); other text is typing.
func (u *urlModal) usesKey(k tea.KeyPressMsg) bool { return u.consent.Uses(k) }

// view draws the consent screen (it draws its own frame).
func (u *urlModal) view(width, height int) string {
	u.consent.SetSize(width, height)
	return u.consent.View()
}

func (u *urlModal) setPosition(i, n int) {
	u.hdr.Index, u.hdr.Total = i, n
	u.consent.SetHeader(u.hdr)
}
