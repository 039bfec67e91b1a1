package attach

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/schemamap"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/internal/sanitize"
	qn "github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui/internal/formsync"
	"github.com/elicit-dev/elicit/urlconsent"
)

// question is the request on screen: a form (with its sync) or a URL
// consent screen.
type question struct {
	req     ahp.Request
	form    *forms.Model
	schema  *schema.Schema
	sync    *formsync.Sync
	consent *urlconsent.Consent
	notes   []string       // questions that cannot be shown
	sent    bool           // the completion went out; waiting for the echo
	content map[string]any // what an accepted form sent, for the log
	typed   bool           // the user changed something in the form
	focus   string         // the field focused after the last key
}

// open builds the screen for req (prefill: values to start from, typed as
// the form's Draft, for a form shown again after a refused completion).
func (m *Model) open(req ahp.Request, index, total int, prefill map[string]any) (*question, tea.Cmd) {
	q := &question{req: req}
	if err := ahp.CheckRequest(&req); err != nil {
		// Never shown, so nobody said no: cancelled, not declined.
		m.note(fmt.Sprintf("the host asked more than a question may carry (%s); cancelling it", sanitize.Line(err.Error())))
		_ = m.o.Conn.Dispatch(ahp.InputCompleted{RequestID: req.ID, Response: qn.Cancel})
		return nil, nil
	}
	if len(req.Questions) == 0 && req.URL != "" {
		h := urlconsent.Header{Agent: m.who(), Message: req.Message, Index: index, Total: total}
		q.consent = urlconsent.NewConsent(m.o.URLs.Analyze(req.URL), h, m.th, m.o.Grace, m.o.Now)
		return q, nil
	}
	mp, notes, err := schemamap.FromQuestions(req.Questions)
	if err != nil {
		// Never shown, so nobody said no: cancelled, not declined.
		m.note(fmt.Sprintf("the host asked a question elicit cannot show (%s); cancelling it", sanitize.Line(err.Error())))
		_ = m.o.Conn.Dispatch(ahp.InputCompleted{RequestID: req.ID, Response: qn.Cancel})
		return nil, nil
	}
	q.notes = notes
	msg := req.Message
	if req.URL != "" {
		msg += "\n\nLink: " + req.URL
	}
	h := forms.Header{Agent: m.who(), Message: msg, Index: index, Total: total}
	q.schema = mp.Schema
	q.form = forms.NewModel(mp.Schema, h, m.remembered(mp.Schema, forms.Options{Theme: m.th, Grace: m.o.Grace, Now: m.o.Now}))
	q.sync = formsync.New(req.ID, mp, q.form, req.Answers)
	for k, v := range prefill {
		_ = q.form.SetValue(k, v)
	}
	q.focus = q.form.Focused()
	return q, q.form.Init()
}

func (m *Model) who() string {
	if m.o.Title != "" {
		return m.o.Title
	}
	return "the host"
}

func (q *question) update(msg tea.Msg) tea.Cmd {
	if q.form != nil {
		return q.form.Update(msg)
	}
	return q.consent.Update(msg)
}

// draft is what the form held when it closed from outside, once the user
// changed something in it (other clients' drafts alone are no loss), one
// "label: value" line each, so nothing typed is lost unseen.
func (q *question) draft() string {
	if q.form == nil || !q.typed {
		return ""
	}
	return q.form.DraftText()
}

// prefillOf is a form's values, for showing it again.
func prefillOf(q *question) map[string]any {
	if q == nil || q.form == nil {
		return nil
	}
	return q.form.Draft()
}

// answered is what the log says of this client's own completion, the way
// the serving screen says it: `you answered form "…": Name "Ada" · Age 30`.
func (q *question) answered(r qn.Action) string {
	what := "form"
	if q.consent != nil {
		what = "URL " + q.consent.Report().Site()
	} else if msg := strings.TrimSpace(q.req.Message); msg != "" {
		what = fmt.Sprintf("form %q", sanitize.Summary(msg, 60))
	}
	switch {
	case r == qn.Accept && q.consent != nil:
		return "you opened " + q.consent.Report().Site()
	case r == qn.Accept:
		return "you answered " + what + ": " + session.ContentSummary(q.schema, q.content)
	case r == qn.Decline:
		return "you declined " + what
	}
	return "you cancelled " + what
}
