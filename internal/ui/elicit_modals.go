package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/forms"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/theme"
	"github.com/elicit-dev/elicit/internal/urlconsent"
)

// formModal hosts a forms.Model for one elicitation in form mode.
type formModal struct {
	req  acpconn.ElicitationRequest
	form *forms.Model
	hdr  forms.Header
	th   *theme.Theme
}

func newFormModal(req acpconn.ElicitationRequest, agent, toolTitle string, th *theme.Theme, now func() time.Time) *formModal {
	h := forms.Header{Agent: agent, ToolCall: toolTitle, Message: req.Message, Index: 1, Total: 1}
	return &formModal{req: req, hdr: h, th: th, form: forms.NewModel(req.Schema, h, forms.Options{Theme: th, Grace: grace, Now: now})}
}

func (f *formModal) reqID() uint64 { return f.req.ID }
func (f *formModal) update(msg tea.Msg) tea.Cmd {
	return f.form.Update(msg)
}
func (f *formModal) done() bool { _, ok := f.form.Done(); return ok }

// view frames the form (it draws no border of its own).
func (f *formModal) view(width, height int) string {
	f.form.SetSize(width-4, height-2)
	return f.th.Modal.Width(width).Render(f.form.View())
}
func (f *formModal) focus() { f.form.Focus() }
func (f *formModal) setPosition(i, n int) {
	f.hdr.Index, f.hdr.Total = i, n
	f.form.SetHeader(f.hdr)
}

// draft is what the user entered, one "Label: value" line per field in
// the form's order, so a form closed from outside (agent cancel, turn
// cancel, agent exit) loses nothing silently.
func (f *formModal) draft() string {
	if !f.form.Dirty() {
		return ""
	}
	values := f.form.Draft()
	var b strings.Builder
	for _, fld := range f.req.Schema.Fields {
		v, ok := values[fld.Key]
		if !ok || v == nil || v == "" {
			continue
		}
		text := fmt.Sprint(v)
		if list, ok := v.([]string); ok {
			text = strings.Join(list, ", ")
		}
		fmt.Fprintf(&b, "\n  %s: %s", fld.Label(), sanitize.Line(text))
	}
	return b.String()
}

// urlModal hosts a urlconsent.Consent for one elicitation in URL mode.
type urlModal struct {
	req     acpconn.ElicitationRequest
	consent *urlconsent.Consent
	hdr     urlconsent.Header
}

func newURLModal(req acpconn.ElicitationRequest, agent, toolTitle string, th *theme.Theme, now func() time.Time) *urlModal {
	h := urlconsent.Header{Agent: agent, ToolCall: toolTitle, Message: req.Message, Index: 1, Total: 1}
	return &urlModal{req: req, hdr: h, consent: urlconsent.NewConsent(req.Report, h, th, grace, now)}
}

func (u *urlModal) reqID() uint64              { return u.req.ID }
func (u *urlModal) update(msg tea.Msg) tea.Cmd { return u.consent.Update(msg) }
func (u *urlModal) done() bool                 { _, ok := u.consent.Done(); return ok }
func (u *urlModal) draft() string              { return "" }
func (u *urlModal) focus()                     { u.consent.Focus() }

// view draws the consent screen (it draws its own frame).
func (u *urlModal) view(width, height int) string {
	u.consent.SetSize(width, height)
	return u.consent.View()
}
func (u *urlModal) setPosition(i, n int) {
	u.hdr.Index, u.hdr.Total = i, n
	u.consent.SetHeader(u.hdr)
}
