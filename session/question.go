package session

import "github.com/elicit-dev/elicit/question"

// Source answers the questions it asked: *acpconn.Conn and *mcpconn.Conn
// are sources. The core passes each outcome on as it is; the source turns
// it into its wire reply. Answer reports false when the question no
// longer waits there.
type Source interface {
	Answer(q *question.Question, out question.Outcome) bool
}

// Closed is a question that ended without an answer: the agent withdrew
// it, the turn was cancelled, or the agent went away.
type Closed struct {
	Q      *question.Question
	Reason string
}

// held is an answer given to a question while its connection was down,
// sent when the agent asks the question again (see Core.Detach).
type held struct {
	q   *question.Question
	out question.Outcome
}
