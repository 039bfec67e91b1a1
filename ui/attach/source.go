// Package attach is `elicit attach`'s source: an Agent Host Protocol
// client as a session.Source. The host's open input requests become
// question.Questions (ahp/schemamap maps their questions to elicit's
// restricted schema), which the session core asks as it asks an agent's;
// an Outcome goes back as the request's inputCompleted, with the full
// final answers; a form's drafts are shared with the other clients as the
// user moves between fields (ui/internal/formsync). The full screen shows
// it (fullscreen.NewAttach); RunAnswers answers without a terminal, by
// the core's rule for no person.
//
//	c, _ := ahp.Dial(ctx, ahp.ClientOptions{URL: url, Token: tok})
//	src := attach.NewSource(c, attach.SourceOptions{Title: c.Title()})
//	m := fullscreen.NewAttach(src, fullscreen.Options{})
package attach

import (
	"context"
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/schemamap"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui/internal/formsync"
)

// Conn is the client side of a session: *ahp.Client is one.
type Conn interface {
	Dispatch(a ahp.Action) error
	Next(ctx context.Context) (ahp.Event, bool)
	ID() string
}

// SourceOptions configure a Source.
type SourceOptions struct {
	// Title names the session (the host's title for it): questions say
	// it asks them.
	Title string
	// Script is a source without a person (RunAnswers): a request with a
	// question elicit does not know is cancelled, not shown without it,
	// and a completion the host refuses is not asked again.
	Script bool
	// URLs analyzes the URLs the host asks the user to open; nil: the
	// built-in list of well-known domains.
	URLs *urlcheck.Analyzer
	// NextID numbers the questions when several sources answer to one
	// session core (the inbox: a source a session); nil: 1, 2, 3...
	NextID func() uint64
	// Key tells the source's URL flows from another's in one core (the
	// inbox: the session's key); "" for a source alone.
	Key string
}

// Source is the host's input requests as questions, for the session
// core (session.Source), and their drafts, for the screen's forms. Its
// methods run on one goroutine (the screen's loop, or RunAnswers'); only
// its outbox dispatches on another, so that none of them waits for the
// network.
type Source struct {
	c     Conn
	o     SourceOptions
	out   *outbox
	in    ahp.Inputs
	byReq map[string]*tracked
	byQ   map[*question.Question]*tracked
	ids   uint64
}

// tracked is a request asked as a question.
type tracked struct {
	q       *question.Question
	req     ahp.Request
	m       *schemamap.Map // nil for a URL
	sync    *formsync.Sync // the form on screen, once it is
	prefill map[string]any // values to start the form from (typed before it was asked again)
	sent    bool           // the completion went out; waiting for the host's echo
	content map[string]any // what an accepted form sent
	chosen  string         // the option an answered permission picked
}

// NewSource reads c's requests; Close stops its outbox.
func NewSource(c Conn, o SourceOptions) *Source {
	return &Source{c: c, o: o, out: newOutbox(c), byReq: map[string]*tracked{}, byQ: map[*question.Question]*tracked{}}
}

// Close sends what waits in the outbox, then stops it.
func (s *Source) Close() { s.out.close() }

// Next waits for the host's next event (off the screen's loop); hand it
// to Apply.
func (s *Source) Next(ctx context.Context) (ahp.Event, bool) { return s.c.Next(ctx) }

// Who names the session's side: its title, else "the host".
func (s *Source) Who() string {
	if s.o.Title != "" {
		return s.o.Title
	}
	return "the host"
}

// Answer sends a question's outcome as the request's completion, with the
// full final answers of an accepted form (session.Source). It reports
// false when the request is not waiting for this client's answer.
func (s *Source) Answer(q *question.Question, out question.Outcome) bool {
	t := s.byQ[q]
	if t == nil || t.sent {
		return false
	}
	out = out.Reply(q.Kind)
	t.sent = true
	var answers map[string]ahp.Answer
	if t.sync != nil {
		s.Send(t.sync.Changes(true)) // what was typed since the last draft
	}
	if q.Kind == question.Permission {
		answers = permissionAnswers(&t.req, out)
	}
	t.chosen = out.Option
	if out.Action == question.Accept && t.m != nil {
		t.content = out.Content
		if t.sync != nil {
			answers = t.sync.Final(out.Content)
		} else {
			answers = t.m.Answers(out.Content, ahp.Submitted)
		}
	}
	s.out.put(ahp.InputCompleted{RequestID: t.req.ID, Response: out.Action, Answers: answers})
	return true
}

// Form shares q's form with the other clients of the request: their
// drafts fill it (never the field the user types in), and what the form
// held before it was asked again is put back where its field still is.
func (s *Source) Form(q *question.Question, f *forms.Model) *formsync.Sync {
	t := s.byQ[q]
	if t == nil || t.m == nil {
		return nil
	}
	var answers map[string]ahp.Answer
	if e := s.in.Open(t.req.ID); e != nil {
		answers = e.Request.Answers
	}
	t.sync = formsync.New(t.req.ID, t.m, f, answers)
	for k, v := range t.prefill {
		if t.m.QuestionOf(k) != "" && v != nil {
			_ = f.SetValue(k, v)
		}
	}
	return t.sync
}

// Send publishes this client's drafts.
func (s *Source) Send(chs []ahp.InputAnswerChanged) {
	for _, ch := range chs {
		s.out.put(ch)
	}
}

// Sending says a completion of this client's waits for the host's echo.
func (s *Source) Sending() bool {
	for _, t := range s.byReq {
		if t.sent {
			return true
		}
	}
	return false
}

// Has says whether the host still has request id, open or completed.
func (s *Source) Has(id string) bool { return s.in.Find(id) != nil }

// Request is the request q asks, as the host sent it.
func (s *Source) Request(q *question.Question) (ahp.Request, bool) {
	if t := s.byQ[q]; t != nil {
		return t.req, true
	}
	return ahp.Request{}, false
}

// RequestOf is the id of the request q asks.
func (s *Source) RequestOf(q *question.Question) string {
	if t := s.byQ[q]; t != nil {
		return t.req.ID
	}
	return ""
}

// ask makes request req a question; ev gets what is to say.
func (s *Source) ask(req ahp.Request, prefill map[string]any, ev *[]any) {
	unshown := func(what string, err error) {
		// Never shown, so nobody said no: cancelled, not declined.
		s.out.put(ahp.InputCompleted{RequestID: req.ID, Response: question.Cancel})
		*ev = append(*ev, Unshown{Request: req.ID, What: what, Reason: sanitize.Line(err.Error())})
	}
	perm := isPermission(&req)
	if perm && s.o.Script {
		return // a permission waits for a person
	}
	if err := ahp.CheckRequest(&req); err != nil {
		unshown("more than a question may carry", err)
		return
	}
	q := &question.Question{ID: s.nextID(), Message: sanitize.Text(req.Message)}
	t := &tracked{q: q, req: req, prefill: prefill}
	switch {
	case perm:
		asPermission(q, &req)
	case len(req.Questions) == 0 && req.URL != "":
		q.Kind, q.URL, q.ElicitationID, q.Report = question.URL, req.URL, req.ID, s.o.URLs.Analyze(req.URL)
		if s.o.Key != "" {
			q.ElicitationID = s.o.Key + "." + req.ID
		}
	default:
		m, notes, err := schemamap.FromQuestions(req.Questions)
		if err == nil && s.o.Script && len(notes) > 0 {
			err = fmt.Errorf("%s", notes[0])
		}
		if err != nil {
			unshown("a question elicit cannot show", err)
			return
		}
		for _, n := range notes {
			*ev = append(*ev, Note{Text: n})
		}
		if s.o.Script {
			heldAsDefaults(m, req.Answers)
		}
		if req.URL != "" {
			q.Message += "\n\nLink: " + sanitize.Line(req.URL)
		}
		q.Kind, q.Schema, t.m = question.Form, m.Schema, m
	}
	s.byReq[req.ID], s.byQ[q] = t, t
	*ev = append(*ev, question.Asked{Q: q})
}

// nextID is the id of the source's next question.
func (s *Source) nextID() uint64 {
	if s.o.NextID != nil {
		return s.o.NextID()
	}
	s.ids++
	return s.ids
}

// heldAsDefaults makes the drafts a request holds the defaults of its
// form, for a script: the host sends a select's default that way (the
// protocol's initial answers), where a screen shows it in the field.
func heldAsDefaults(m *schemamap.Map, answers map[string]ahp.Answer) {
	for qid, a := range answers {
		if a.State != ahp.Draft {
			continue
		}
		for k, v := range m.Values(qid, &a) {
			if f := m.Schema.Field(k); f != nil && v != nil && v != "" {
				f.Default, f.HasDefault = v, true
			}
		}
	}
}

// forget stops tracking t.
func (s *Source) forget(t *tracked) {
	delete(s.byReq, t.req.ID)
	delete(s.byQ, t.q)
}

// withdraw closes t's question, unless this client answered it.
func (s *Source) withdraw(t *tracked, reason string, ev *[]any) {
	s.forget(t)
	if !t.sent {
		*ev = append(*ev, question.Withdrawn{ID: t.q.ID, Reason: reason})
	}
}

// answered is what this client's own completion of t says, the way a
// person's answer is said: `you answered form "…": Name "Ada" · Age 30`.
func (t *tracked) answered(r question.Action) string {
	if t.q.Kind == question.Permission {
		if r == question.Accept {
			return "you chose " + optionName(t.q, t.chosen) + " for " + t.q.From.Tool
		}
		return "you cancelled the permission for " + t.q.From.Tool
	}
	what := "form"
	if t.q.Kind == question.URL {
		what = "URL " + t.q.Report.Site()
	} else if msg := strings.TrimSpace(t.req.Message); msg != "" {
		what = fmt.Sprintf("form %q", sanitize.Summary(msg, 60))
	}
	switch {
	case r == question.Accept && t.q.Kind == question.URL:
		return "you opened " + t.q.Report.Site()
	case r == question.Accept:
		return "you answered " + what + ": " + session.ContentSummary(t.q.Schema, t.content)
	case r == question.Decline:
		return "you declined " + what
	}
	return "you cancelled " + what
}
