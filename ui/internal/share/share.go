// Package share is the host side of `elicit serve`: it mirrors the session
// core's questions to an AHP host (it is the core's session.Observer), so
// every attached client sees them, turns another client's completion into
// the core's answer, and carries drafts both ways for the terminal that
// runs the session, which is itself a full client of the same state.
//
// Forms and URLs are mirrored to every client; permissions only when
// Options.Permissions says so (the inbox's same-user socket serves the
// host), and then to same-user clients alone (ahp.Host.RequestPrivate):
// over the network they stay on the serving terminal (see the README).
package share

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/schemamap"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/formsync"
)

// Answer is a completion another client made: the core answers Q with Out.
type Answer struct {
	Q   *question.Question
	Out question.Outcome
	Who string
	// Inbox: it came from the user's inbox (a same-user connection on
	// the session's socket), not from a client over the network.
	Inbox bool
}

// Where says where the answer was given, for the transcript: "in the
// inbox", or "elsewhere (by WHO)".
func (a Answer) Where() string {
	if a.Inbox {
		return "in the inbox"
	}
	return "elsewhere (by " + sanitize.Line(a.Who) + ")"
}

// Options configure a Share.
type Options struct {
	// Permissions mirrors permissions too, to same-user clients only (the
	// inbox): set it when the host is served on the inbox's socket.
	Permissions bool
	// Now is the clock of the questions' askedAt (default time.Now).
	Now func() time.Time
}

// Presence says another client attached to the session (Attached) or
// left it; Inbox says it came over the same-user socket (the inbox, which
// comes and goes as the user lists it: not news, but someone who may
// answer).
type Presence struct {
	Who      string
	Attached bool
	Inbox    bool
}

// Draft is another client's change to one question of Q's form.
type Draft struct {
	Q          *question.Question
	QuestionID string
	Answer     *ahp.Answer
	Who        string
}

type item struct {
	q    *question.Question
	id   string
	m    *schemamap.Map
	sync *formsync.Sync
	// claimed: the host took this terminal's completion (Claim).
	claimed bool
}

// Share mirrors one session's questions to a host.
type Share struct {
	o     Options
	h     *ahp.Host
	local *ahp.Local // the serving terminal, a client of the host
	mu    sync.Mutex
	byQ   map[*question.Question]*item
	byID  map[string]*item
	n     int
	out   *queue
	stop  context.CancelFunc
}

// New returns the share for host h; the serving terminal joins it as the
// client name (no attached client can take that id), and its drafts and
// answers carry it. Close stops it.
func New(h *ahp.Host, name string, o Options) (*Share, error) {
	local, err := h.Join(name)
	if err != nil {
		return nil, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Share{o: o, h: h, local: local, byQ: map[*question.Question]*item{}, byID: map[string]*item{}, out: newQueue()}
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = func() { cancel(); s.out.close() }
	next, stopWatch := h.Watch()
	go func() {
		defer stopWatch()
		for {
			u, ok := next(ctx)
			if !ok {
				return
			}
			if d, ok := s.draft(u); ok {
				s.out.put(d) // never blocks: a draft replaces the one waiting for its field
			} else if p := u.Presence; p != nil && p.ClientID != s.local.ID() {
				s.out.put(Presence{Who: p.ClientID, Attached: p.Attached, Inbox: p.SameUser})
			}
		}
	}()
	go func() {
		for {
			c, ok := h.NextCompletion(ctx)
			if !ok {
				return
			}
			if a, ok := s.answer(c); ok {
				s.out.put(a)
			}
		}
	}()
	return s, nil
}

// Check is the host's extra rule (ahp.HostOptions.Check): an accepted
// form's final answers must make content its schema takes.
func (s *Share) Check(final ahp.Request) error {
	s.mu.Lock()
	it := s.byID[final.ID]
	s.mu.Unlock()
	if it == nil || it.m == nil {
		return nil
	}
	_, err := it.m.Content(final.Answers)
	return err
}

// Close stops reading the host.
func (s *Share) Close() { s.stop() }

// Next waits for the next thing another client did: an Answer, a Draft or
// a Presence.
func (s *Share) Next(ctx context.Context) (any, bool) { return s.out.next(ctx) }

// Asked publishes a form or URL question (session.Observer).
func (s *Share) Asked(q *question.Question) {
	if q.ID == 0 || q.Kind == question.Permission && !s.o.Permissions {
		return // a permission stays with the serving terminal
	}
	s.mu.Lock()
	s.n++
	it := &item{q: q, id: fmt.Sprintf("q%d", s.n)}
	req := ahp.Request{ID: it.id, Message: q.Message, Meta: s.meta(q)}
	switch {
	case q.Kind == question.Permission:
		req = permissionRequest(it.id, q, req.Meta)
	case q.Kind == question.URL:
		req.URL = q.URL
	case q.Schema != nil:
		it.m = schemamap.FromSchema(q.Schema)
		req.Questions, req.Answers = it.m.Questions, it.m.Initial()
		// The protocol's request has no title: the form's goes first in
		// its message, so every client shows it.
		if t := q.Schema.Title; t != "" {
			req.Message = strings.TrimSpace(t + "\n\n" + req.Message)
		}
	}
	s.byQ[q], s.byID[it.id] = it, it
	s.mu.Unlock()
	ask := s.h.Request
	if q.Kind == question.Permission {
		ask = s.h.RequestPrivate // never to a network client
	}
	if err := ask(req); err != nil {
		s.forget(q)
	}
}

// Claim is the host's word on an answer given on the serving terminal
// (session.Arbiter): it is dispatched as this client's completion, and
// when another client's completion won first, that one is what the
// agent gets, as every client was told.
func (s *Share) Claim(q *question.Question, out question.Outcome) question.Outcome {
	s.mu.Lock()
	it := s.byQ[q]
	s.mu.Unlock()
	if it == nil {
		return out // not shared (a permission), or no longer on the host
	}
	err := s.local.Dispatch(s.completion(it, out))
	if err == nil {
		s.mu.Lock()
		it.claimed = true
		s.mu.Unlock()
		return out
	}
	if w, ok := s.h.Winner(it.id); ok && w.By.ClientID != s.local.ID() {
		if a, ok := s.answer(w); ok {
			return a.Out
		}
	}
	return out // withdrawn or the host closed: the agent has only this answer
}

// Answered forgets a question once the core answered it
// (session.Observer): Claim already told the host, and an answer that came
// from another client is the host's own.
func (s *Share) Answered(q *question.Question, out question.Outcome) {
	it := s.forget(q)
	if it == nil || it.claimed || out.By == question.ByRemote {
		return
	}
	if err := s.local.Dispatch(s.completion(it, out)); err != nil {
		s.h.Withdraw(it.id) // whatever stopped it, the agent has its answer
	}
}

// completion is the terminal's answer to it as the host takes it.
func (s *Share) completion(it *item, out question.Outcome) ahp.InputCompleted {
	c := ahp.InputCompleted{RequestID: it.id, Response: out.Reply(it.q.Kind).Action}
	switch {
	case it.q.Kind == question.Permission:
		c.Answers = permissionAnswers(out)
	case out.Action == question.Accept && it.m != nil:
		c.Answers = it.m.Answers(out.Content, ahp.Submitted)
	}
	return c
}

// Closed withdraws a question the agent no longer waits for.
func (s *Share) Closed(q *question.Question, reason string) {
	if it := s.forget(q); it != nil {
		s.h.Withdraw(it.id)
	}
}

func (s *Share) forget(q *question.Question) *item {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.byQ[q]
	delete(s.byQ, q)
	if it != nil {
		delete(s.byID, it.id)
	}
	return it
}

// Event follows the agent's turns: a turn that ends drops the requests
// still open, and every client is told.
func (s *Share) Event(ev acpconn.Event) {
	switch ev := ev.(type) {
	case acpconn.TurnEnded:
		state := ahp.TurnComplete
		switch {
		case ev.Err != nil:
			state = ahp.TurnError
		case ev.StopReason == "cancelled":
			state = ahp.TurnCancelled
		}
		s.h.EndTurn(state)
	case acpconn.AgentExited:
		s.h.EndTurn(ahp.TurnError)
	case acpconn.SessionInfo:
		if ev.Title != "" {
			s.h.SetTitle(sanitize.Line(ev.Title))
		}
	}
}

// Form shares q's form with the other clients: nil when q is not shared.
func (s *Share) Form(q *question.Question, f *forms.Model) *formsync.Sync {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.byQ[q]
	if it == nil || it.m == nil {
		return nil
	}
	var answers map[string]ahp.Answer
	in := s.h.Inputs()
	if e := in.Open(it.id); e != nil {
		answers = e.Request.Answers
	}
	it.sync = formsync.New(it.id, it.m, f, answers)
	return it.sync
}

// Send publishes the serving terminal's drafts.
func (s *Share) Send(chs []ahp.InputAnswerChanged) {
	for _, ch := range chs {
		_ = s.local.Dispatch(ch)
	}
}

// draft is another client's draft for a question the terminal shows.
func (s *Share) draft(u ahp.Update) (Draft, bool) {
	a, ok := u.Action.(ahp.InputAnswerChanged)
	if !ok || u.Origin == nil || u.Origin.ClientID == s.local.ID() {
		return Draft{}, false
	}
	s.mu.Lock()
	it := s.byID[a.RequestID]
	s.mu.Unlock()
	if it == nil {
		return Draft{}, false
	}
	return Draft{Q: it.q, QuestionID: a.QuestionID, Answer: a.Answer, Who: u.Origin.ClientID}, true
}

// answer is the core's answer for another client's completion.
func (s *Share) answer(c ahp.Completion) (Answer, bool) {
	if c.By.ClientID == s.local.ID() {
		return Answer{}, false // the terminal's own: the core already has it
	}
	s.mu.Lock()
	it := s.byID[c.Request.ID]
	s.mu.Unlock()
	if it == nil {
		return Answer{}, false
	}
	a := Answer{Q: it.q, Who: c.By.ClientID, Inbox: c.SameUser}
	reason := "by " + sanitize.Line(c.By.ClientID)
	if a.Inbox {
		reason = "in the inbox"
	}
	out := question.Outcome{Action: c.Response, By: question.ByRemote, Reason: reason}.Reply(it.q.Kind)
	if it.q.Kind == question.Permission {
		out = permissionOutcome(it.q, c, out)
	} else if out.Action == question.Accept && it.m != nil {
		content, err := it.m.Content(c.Request.Answers)
		if err != nil { // the host checked it (Check): only a bug gets here; nobody said no
			out = question.Outcome{Action: question.Cancel, By: question.ByRemote, Reason: err.Error()}
		} else {
			out.Content = content
		}
	}
	a.Out = out
	return a, true
}
