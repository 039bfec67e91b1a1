package ahp

import "github.com/elicit-dev/elicit/question"

// Action is one neutral state change of a session's input requests. The
// Generation of a connection turns it into the wire action of its protocol
// version and back.
type Action interface{ isAction() }

// InputRequested creates the request with that id, or replaces the open
// one (its drafts are kept unless Request.Answers is set). Host only.
type InputRequested struct{ Request Request }

// InputAnswerChanged sets one question's answer; a nil Answer clears it.
type InputAnswerChanged struct {
	RequestID  string
	QuestionID string
	Answer     *Answer
}

// InputCompleted completes a request; Answers are merged over the synced
// ones.
type InputCompleted struct {
	RequestID string
	Response  question.Action
	Answers   map[string]Answer
}

// TurnStarted says a turn began. Host only.
type TurnStarted struct{ TurnID string }

// TurnEnded says the active turn ended (State: complete, cancelled or
// error): its open requests are dropped. Host only.
type TurnEnded struct {
	TurnID string
	State  string
}

// Turn end states.
const (
	TurnComplete  = "complete"
	TurnCancelled = "cancelled"
	TurnError     = "error"
)

func (InputRequested) isAction()     {}
func (InputAnswerChanged) isAction() {}
func (InputCompleted) isAction()     {}
func (TurnStarted) isAction()        {}
func (TurnEnded) isAction()          {}

// ClientDispatchable reports whether a client may dispatch a.
func ClientDispatchable(a Action) bool {
	switch a.(type) {
	case InputAnswerChanged, InputCompleted:
		return true
	}
	return false
}
