package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// maxAnswer bounds an answer's body: a form's values, as typed.
const maxAnswer = 1 << 20

// answerRequest is what POST /api/answer takes.
type answerRequest struct {
	ID     string          `json:"id"`
	Action question.Action `json:"action"`
	// Review checks a form's values and returns them as the review step
	// shows them, answering nothing.
	Review bool `json:"review,omitempty"`
	// Content is a form's values by field key: what was typed (a string),
	// a bool, an option's value, or a list of them; null for none.
	Content map[string]json.RawMessage `json:"content,omitempty"`
	// Option is the permission option picked.
	Option string `json:"option,omitempty"`
}

// answerReply is what it answers.
type answerReply struct {
	OK       bool            `json:"ok"`
	Response question.Action `json:"response,omitempty"`
	// Errors are the form's bad fields: key to reason.
	Errors map[string]string `json:"errors,omitempty"`
	Review []reviewLine      `json:"review,omitempty"`
	// Gone: the question no longer waits (answered elsewhere first, or
	// withdrawn); Message says which when elicit knows.
	Gone    bool   `json:"gone,omitempty"`
	Message string `json:"message,omitempty"`
	// URL is the link to open, once consented to.
	URL string `json:"url,omitempty"`
}

// reviewLine is one answer as the review step lists it.
type reviewLine struct {
	Key    string `json:"key"`
	Label  string `json:"label"`
	Value  string `json:"value"`
	Secret bool   `json:"secret,omitempty"`
}

// answer is POST /api/answer: the question's one kind of answer, checked
// here as the terminal checks it, then sent to its session. The first
// answer wins: one given elsewhere first is reported, not overwritten.
func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	var req answerRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, maxAnswer)).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, answerReply{Message: "the answer could not be read: " + sanitize.Line(err.Error())})
		return
	}
	it, ok := s.find(req.ID)
	if !ok {
		writeJSON(w, http.StatusGone, answerReply{Gone: true, Message: s.goneMessage(req.ID)})
		return
	}
	switch req.Action {
	case question.Accept, question.Decline, question.Cancel:
	default:
		writeJSON(w, http.StatusBadRequest, answerReply{Message: "the action is accept, decline or cancel"})
		return
	}
	done := ahp.InputCompleted{RequestID: it.Request.ID, Response: req.Action}
	reply := answerReply{}
	switch it.Kind {
	case ahp.MetaPermission:
		if !s.o.Permissions {
			writeJSON(w, http.StatusForbidden, answerReply{Message: "Answer permissions at a terminal: this page was started without --web-permissions."})
			return
		}
		q := it.Request.Question("option")
		if req.Action != question.Accept || q == nil || !q.HasOption(req.Option) {
			writeJSON(w, http.StatusBadRequest, answerReply{Message: "pick one of the agent's options"})
			return
		}
		done.Answers = map[string]ahp.Answer{"option": {State: ahp.Submitted, Value: &ahp.Value{Kind: ahp.ValueSelected, Selected: req.Option}}}
	case ahp.MetaURL:
		rep := urlcheck.Analyze(it.Request.URL)
		if req.Action == question.Accept {
			if !rep.Openable() {
				writeJSON(w, http.StatusBadRequest, answerReply{Message: "this link cannot be opened: only http and https links open"})
				return
			}
			reply.URL = rep.URL
		}
	default:
		if req.Action == question.Accept || req.Review {
			f, err := checkForm(it.Request, req.Content)
			if err != nil {
				writeJSON(w, http.StatusOK, answerReply{Errors: err.fields, Message: err.message})
				return
			}
			if req.Review {
				writeJSON(w, http.StatusOK, answerReply{OK: true, Review: f.review()})
				return
			}
			done.Answers = f.answers()
		}
	}
	code, out := s.complete(r.Context(), req.ID, done)
	if out.OK {
		out.URL = reply.URL
	}
	writeJSON(w, code, out)
}

// complete sends done to the question's session over a connection of its
// own and waits for its word.
func (s *Server) complete(ctx context.Context, id string, done ahp.InputCompleted) (int, answerReply) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, _, err := inbox.Open(ctx, s.o.Inbox, id)
	if err != nil {
		if errors.Is(err, inbox.ErrNotWaiting) {
			return http.StatusGone, answerReply{Gone: true, Message: s.goneMessage(id)}
		}
		return http.StatusBadGateway, answerReply{Message: sanitize.Line(err.Error())}
	}
	defer c.Close()
	err = inbox.Complete(ctx, c, done)
	var elsewhere *inbox.ElsewhereError
	switch {
	case err == nil:
		s.log("answered " + sanitize.Line(id) + " from the page: " + string(done.Response))
		return http.StatusOK, answerReply{OK: true, Response: done.Response}
	case errors.As(err, &elsewhere):
		return http.StatusConflict, answerReply{Gone: true, Message: "Answered elsewhere first (" + elsewhere.Response + "): this answer was not sent."}
	case errors.Is(err, inbox.ErrNotWaiting):
		return http.StatusGone, answerReply{Gone: true, Message: s.goneMessage(id)}
	}
	return http.StatusBadGateway, answerReply{Message: sanitize.Line(err.Error())}
}

// find is the waiting question id.
func (s *Server) find(id string) (inbox.Item, bool) {
	for _, it := range s.watch.Items() {
		if it.ID == id {
			return it, true
		}
	}
	return inbox.Item{}, false
}

// goneMessage says why question id no longer waits, as well as elicit
// knows it.
func (s *Server) goneMessage(id string) string {
	if resp := s.hub.goneReason(id); resp != "" {
		return "Answered elsewhere (" + string(resp) + ")."
	}
	return "No longer waiting: answered elsewhere, or withdrawn by the agent."
}
