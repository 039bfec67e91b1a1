package attach

import (
	"strings"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// The events Apply returns beside package question's (Asked, Withdrawn,
// FlowComplete, Gone), which go to the session core as they are.
type (
	// Note is a line for the log: what this client's completion said,
	// a question of a kind elicit does not know.
	Note struct{ Text string }
	// Problem is something the host could not do, or an action of this
	// client's it refused.
	Problem struct{ Text string }
	// Refused is a completion of this client's the host refused.
	Refused struct{ Request, Reason string }
	// Status is where the connection is: "connected", "connection lost:
	// reconnecting…".
	Status struct{ Text string }
	// Unshown is a request elicit did not show, cancelled: What it was
	// ("more than a question may carry"), and why.
	Unshown struct{ Request, What, Reason string }
	// Ended says the connection ended: the last event.
	Ended struct{ Err error }
)

// Completed is a request the host completed (whoever did): the line
// RunAnswers prints for it.
type Completed struct {
	Request  string                `json:"request"`
	Response question.Action       `json:"response"`
	Answers  map[string]ahp.Answer `json:"answers,omitempty"`
	By       string                `json:"by,omitempty"` // the client that completed it
	Mine     bool                  `json:"mine"`
}

// Apply takes an event of the host's and returns what it means, in
// order: questions asked and withdrawn (for the core), and this package's
// events. Call it on the loop that answers (it reads the forms on
// screen).
func (s *Source) Apply(ev ahp.Event) []any {
	var out []any
	switch ev := ev.(type) {
	case ahp.Reset:
		s.in = ev.Inputs
		for _, t := range s.byReq {
			e := s.in.Open(t.req.ID)
			switch {
			case e == nil:
				s.withdraw(t, "the request was closed while the connection was down", &out)
			case t.sync != nil:
				for qid, a := range e.Request.Answers {
					t.sync.Remote(qid, &a, "")
				}
			}
		}
		out = append(out, Status{"connected"})
	case ahp.Changed:
		s.in = ev.Inputs
		s.changed(ev, &out)
	case ahp.Rejected:
		s.in = ev.Inputs
		s.rejected(ev, &out)
	case ahp.Connection:
		if !ev.Up {
			return []any{Status{"connection lost: reconnecting…"}}
		}
		out = append(out, Status{"connected"})
		for _, t := range s.byReq {
			if t.sync != nil && !t.sent {
				s.Send(t.sync.Changes(true)) // what was typed meanwhile
			}
		}
	case ahp.Problem:
		out = append(out, Problem{sanitize.Text(ev.Err.Error())})
	case ahp.Closed:
		return []any{question.Gone{}, Ended{ev.Err}}
	}
	for _, r := range s.in.OpenRequests() {
		if s.byReq[r.ID] == nil {
			s.ask(r, nil, &out)
		}
	}
	return out
}

// changed applies an action the host applied.
func (s *Source) changed(ev ahp.Changed, out *[]any) {
	who := "the host"
	if ev.Origin != nil {
		who = ev.Origin.ClientID
	}
	switch a := ev.Action.(type) {
	case ahp.InputAnswerChanged:
		if t := s.byReq[a.RequestID]; !ev.Mine && t != nil && t.sync != nil {
			t.sync.Remote(a.QuestionID, a.Answer, who)
		}
	case ahp.InputCompleted:
		line := Completed{Request: a.RequestID, Response: a.Response, Mine: ev.Mine}
		if e := s.in.Find(a.RequestID); e != nil {
			line.Answers = e.Request.Answers
		}
		if ev.Origin != nil {
			line.By = ev.Origin.ClientID
		}
		*out = append(*out, line)
		t := s.byReq[a.RequestID]
		switch {
		case t == nil:
		case ev.Mine:
			s.forget(t)
			*out = append(*out, Note{t.answered(a.Response)})
			if t.q.Kind == question.URL && a.Response == question.Accept {
				*out = append(*out, question.FlowComplete{ElicitationID: t.q.ElicitationID}) // the host has it: nothing more to wait for
			}
		default:
			s.withdraw(t, "answered elsewhere: "+string(a.Response)+" (by "+sanitize.Line(who)+")", out)
		}
	case ahp.InputRequested:
		// The host asks a request it asked already, changed: the form is
		// built anew, and what the user typed stays where its field still
		// is.
		t := s.byReq[a.Request.ID]
		e := s.in.Open(a.Request.ID)
		if t == nil || t.sent || e == nil {
			return
		}
		var keep map[string]any
		if t.sync != nil {
			keep = t.sync.Form.Draft()
		}
		s.withdraw(t, "the host changed the request it asks", out)
		s.ask(e.Request, keep, out)
	case ahp.TurnEnded:
		for _, t := range s.byReq {
			s.withdraw(t, "the turn ended: the agent no longer waits for this answer", out)
		}
	}
}

// rejected says why the host refused an action; a refused completion is
// asked again with what was entered (a script's is not), unless another
// client's completion came first.
func (s *Source) rejected(ev ahp.Rejected, out *[]any) {
	c, ok := ev.Action.(ahp.InputCompleted)
	if !ok {
		*out = append(*out, Problem{"the host refused: " + sanitize.Line(ev.Reason)})
		return
	}
	*out = append(*out, Refused{Request: c.RequestID, Reason: sanitize.Line(ev.Reason)})
	t := s.byReq[c.RequestID]
	if t == nil || !t.sent {
		return
	}
	e := s.in.Open(c.RequestID)
	switch {
	case strings.Contains(ev.Reason, "already completed") || e == nil:
		s.forget(t)
		*out = append(*out, Note{"answered elsewhere first"})
	case !s.o.Script: // a script's stays answered: it is not asked again
		s.forget(t)
		s.ask(e.Request, t.content, out)
	}
}
