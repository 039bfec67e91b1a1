package web

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/ahp/schemamap"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// What the page is sent. Every string from an agent or a server is
// sanitized here as for a terminal (no control, bidi or invisible
// character), and the page puts it in the document as text, never as
// HTML.

// secretWarning is the terminal's warning under a field that seems to ask
// for a secret.
const secretWarning = "This looks like a secret. Forms go to the agent and its model: never type passwords, tokens or keys here."

// itemView is one line of the list.
type itemView struct {
	ID      string    `json:"id"`
	Kind    string    `json:"kind"`
	Agent   string    `json:"agent"`
	Cwd     string    `json:"cwd"`
	Title   string    `json:"title"`
	Summary string    `json:"summary"`
	Tool    string    `json:"tool,omitempty"`
	Since   time.Time `json:"since"`
}

// questionView is one question, whole: exactly one of Form, URL and
// Permission is set, so a question has one kind of answer.
type questionView struct {
	itemView
	Message    string          `json:"message"`
	Form       *formView       `json:"form,omitempty"`
	URL        *urlView        `json:"url,omitempty"`
	Permission *permissionView `json:"permission,omitempty"`
	// Notes are what cannot be shown (questions of unknown kinds).
	Notes []string `json:"notes,omitempty"`
}

type formView struct {
	Fields []fieldView `json:"fields"`
}

// fieldView is one field; its control is named by Key.
type fieldView struct {
	Key         string       `json:"key"`
	Label       string       `json:"label"`
	Description string       `json:"description,omitempty"`
	Kind        string       `json:"kind"` // schema.Kind's name: string, number, integer, boolean, select, multiselect, list, const
	Format      string       `json:"format,omitempty"`
	Required    bool         `json:"required,omitempty"`
	Hints       []string     `json:"hints,omitempty"`
	Secret      string       `json:"secret,omitempty"` // the warning, for a field that seems to ask for a secret
	Options     []optionView `json:"options,omitempty"`
	// Value is what the field starts with: what the form holds (another
	// client's draft), else its default. A string for text, numbers and
	// lists (one a line), a bool, an option's value, or a list of them.
	Value   any    `json:"value,omitempty"`
	Min     string `json:"min,omitempty"` // a number's lower bound, for the phone's keyboard
	OtherOf string `json:"otherOf,omitempty"`
}

type optionView struct {
	Value       string `json:"value"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
}

// urlView is a URL to consent to, as the consent screen shows it.
type urlView struct {
	URL         string        `json:"url"`
	Before      string        `json:"before"`
	Site        string        `json:"site"`
	After       string        `json:"after"`
	Domain      string        `json:"domain"`
	HostUnicode string        `json:"hostUnicode,omitempty"`
	HostASCII   string        `json:"hostAscii,omitempty"`
	Input       string        `json:"input,omitempty"` // as the agent wrote it, when it reads differently
	Warnings    []warningView `json:"warnings,omitempty"`
	Openable    bool          `json:"openable"`
}

type warningView struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// permissionView is a permission's options; Answerable is false unless
// the page was started with --web-permissions.
type permissionView struct {
	Options    []optionView `json:"options"`
	Answerable bool         `json:"answerable"`
}

// itemOf is it as a line of the list (its strings are sanitized by the
// inbox already).
func itemOf(it inbox.Item) itemView {
	return itemView{ID: it.ID, Kind: it.Kind, Agent: it.Agent, Cwd: it.Cwd, Title: it.Title, Summary: it.Message, Tool: it.Tool, Since: it.WaitingSince.UTC()}
}

// questionOf is it whole, as its kind is answered.
func questionOf(it inbox.Item, permissions bool) questionView {
	r := it.Request
	v := questionView{itemView: itemOf(it), Message: sanitize.Text(strings.TrimSpace(r.Message))}
	switch it.Kind {
	case ahp.MetaPermission:
		p := &permissionView{Answerable: permissions}
		if q := r.Question("option"); q != nil {
			for _, o := range q.Options {
				p.Options = append(p.Options, optionView{Value: o.ID, Title: sanitize.Line(o.Label), Description: sanitize.Line(o.Description)})
			}
		}
		v.Permission = p
	case ahp.MetaURL:
		v.URL = urlOf(urlcheck.Analyze(r.URL))
	default:
		m, notes, err := schemamap.FromQuestions(r.Questions)
		for _, n := range notes {
			v.Notes = append(v.Notes, sanitize.Line(n))
		}
		if err != nil {
			v.Notes = append(v.Notes, "elicit cannot show this form: "+sanitize.Line(err.Error()))
			break
		}
		v.Form = formOf(m, r)
		if r.URL != "" {
			v.Message += "\n\nLink: " + urlcheck.Visible(r.URL)
		}
	}
	return v
}

// formOf is the form m shows for r, each field starting from what the
// form holds.
func formOf(m *schemamap.Map, r ahp.Request) *formView {
	held := map[string]any{}
	for _, q := range m.Questions {
		if a, ok := r.Answers[q.ID]; ok {
			for k, v := range m.Values(q.ID, &a) {
				held[k] = v
			}
		}
	}
	f := &formView{}
	for _, fd := range m.Schema.Fields {
		fv := fieldView{Key: fd.Key, Label: fd.Label(), Description: sanitize.Text(fd.Description), Kind: fd.Kind.String(),
			Format: string(fd.Format), Required: fd.Required, Hints: fd.Hints(), OtherOf: fd.OtherOf}
		if fd.Secret {
			fv.Secret = secretWarning
		}
		for _, o := range fd.Options {
			fv.Options = append(fv.Options, optionView{Value: o.Value, Title: sanitize.Line(o.Title), Description: sanitize.Line(o.Description)})
		}
		if fd.Minimum != nil {
			fv.Min = fd.Minimum.String()
		}
		v, ok := held[fd.Key]
		if !ok && fd.HasDefault {
			v = fd.Default
		}
		if fd.Kind == schema.KindConst {
			v = fd.Const
		}
		fv.Value = shown(fd, v)
		f.Fields = append(f.Fields, fv)
	}
	return f
}

// shown is a typed value as the page's control holds it.
func shown(f *schema.Field, v any) any {
	switch v := v.(type) {
	case nil:
		return nil
	case json.Number:
		return v.String()
	case []string:
		if f.Kind == schema.KindList {
			return strings.Join(v, "\n")
		}
		return v
	case string, bool:
		return v
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// urlOf is r as the consent screen shows it.
func urlOf(r urlcheck.Report) *urlView {
	before, site, after := urlcheck.UrlParts(r)
	v := &urlView{URL: urlcheck.Visible(r.URL), Before: before, Site: urlcheck.Visible(site), After: after, Domain: urlcheck.Visible(r.Site()),
		Openable: r.Openable()}
	if r.HostUnicode != r.HostASCII {
		v.HostUnicode, v.HostASCII = urlcheck.Visible(r.HostUnicode), r.HostASCII
	}
	if urlcheck.InputDiffers(r) {
		v.Input = urlcheck.Visible(r.Input)
	}
	for _, w := range urlcheck.SortedWarnings(r.Warnings) {
		v.Warnings = append(v.Warnings, warningView{Code: w.Code, Severity: w.Severity.String(), Message: sanitize.Line(w.Message)})
	}
	return v
}
