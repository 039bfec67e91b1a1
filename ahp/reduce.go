package ahp

import "github.com/elicit-dev/elicit/question"

// Entry is one request in a session's input state, with its response once
// completed (Response "" = open).
type Entry struct {
	Request  Request
	Response question.Action
}

// Open reports whether the request waits for a completion.
func (e *Entry) Open() bool { return e.Response == "" }

// Inputs is a session's input state during a turn: its requests in the
// order they were asked, completed ones included until the turn ends.
type Inputs struct {
	Turn    string // the active turn's id ("" when none is known)
	Entries []Entry
}

// Clone is a deep copy of s.
func (s Inputs) Clone() Inputs {
	out := Inputs{Turn: s.Turn, Entries: make([]Entry, len(s.Entries))}
	for i, e := range s.Entries {
		out.Entries[i] = Entry{Request: e.Request.Clone(), Response: e.Response}
	}
	return out
}

// Open returns the open entry with that request id, or nil.
func (s *Inputs) Open(id string) *Entry {
	for i := range s.Entries {
		if e := &s.Entries[i]; e.Request.ID == id && e.Open() {
			return e
		}
	}
	return nil
}

// Find returns the latest entry with that request id, open or completed,
// or nil.
func (s *Inputs) Find(id string) *Entry {
	for i := len(s.Entries) - 1; i >= 0; i-- {
		if s.Entries[i].Request.ID == id {
			return &s.Entries[i]
		}
	}
	return nil
}

// OpenRequests returns copies of the open requests, in order.
func (s *Inputs) OpenRequests() []Request {
	var out []Request
	for _, e := range s.Entries {
		if e.Open() {
			out = append(out, e.Request.Clone())
		}
	}
	return out
}

// Apply is the reducer: it applies a to s and reports whether s changed.
// It validates nothing (the host does, before it applies a client's
// action); an action naming an unknown or completed request changes
// nothing.
//
//   - InputRequested replaces the open request with the same id (its
//     drafts kept unless the new request carries answers; drafts of
//     questions it no longer has are dropped), or appends a new one.
//   - InputAnswerChanged sets or (nil) clears one answer.
//   - InputCompleted merges its answers over the synced ones and records
//     the response.
//   - TurnEnded drops every request; TurnStarted starts an empty turn.
func (s *Inputs) Apply(a Action) bool {
	switch a := a.(type) {
	case InputRequested:
		req := a.Request.Clone()
		if e := s.Open(req.ID); e != nil {
			if req.Answers == nil {
				req.Answers = keepAnswered(e.Request.Answers, &req)
			}
			e.Request = req
			return true
		}
		s.Entries = append(s.Entries, Entry{Request: req})
		return true
	case InputAnswerChanged:
		e := s.Open(a.RequestID)
		if e == nil {
			return false
		}
		if a.Answer == nil {
			if _, ok := e.Request.Answers[a.QuestionID]; !ok {
				return false
			}
			delete(e.Request.Answers, a.QuestionID)
			if len(e.Request.Answers) == 0 {
				e.Request.Answers = nil
			}
			return true
		}
		if e.Request.Answers == nil {
			e.Request.Answers = map[string]Answer{}
		}
		e.Request.Answers[a.QuestionID] = a.Answer.Clone()
		return true
	case InputCompleted:
		e := s.Open(a.RequestID)
		if e == nil || !a.Response.Valid() {
			return false
		}
		if len(a.Answers) > 0 && e.Request.Answers == nil {
			e.Request.Answers = map[string]Answer{}
		}
		for k, v := range a.Answers {
			e.Request.Answers[k] = v.Clone()
		}
		e.Response = a.Response
		return true
	case TurnStarted:
		changed := s.Turn != a.TurnID || len(s.Entries) > 0
		s.Turn, s.Entries = a.TurnID, nil
		return changed
	case TurnEnded:
		changed := s.Turn != "" || len(s.Entries) > 0
		s.Turn, s.Entries = "", nil
		return changed
	}
	return false
}

// keepAnswered is the old answers of the questions req still has.
func keepAnswered(old map[string]Answer, req *Request) map[string]Answer {
	var out map[string]Answer
	for k, v := range old {
		if req.Question(k) == nil {
			continue
		}
		if out == nil {
			out = map[string]Answer{}
		}
		out[k] = v
	}
	return out
}
