package session

import "github.com/elicit-dev/elicit/question"

// Observer hears about the questions a person is asked: one queued for the
// user (Asked), answered by anyone (Answered, with the outcome and who gave
// it), or closed without an answer (Closed: withdrawn, the agent gone).
// `elicit serve` mirrors questions to other clients with it, so each front
// end need not. Its methods run on the caller's loop and must not block.
type Observer interface {
	Asked(q *question.Question)
	Answered(q *question.Question, out question.Outcome)
	Closed(q *question.Question, reason string)
}

// SetObserver sets the one observer (nil: none).
func (c *Core) SetObserver(o Observer) { c.obs = o }

func (c *Core) observeAsked(q *question.Question) {
	if c.obs != nil {
		c.obs.Asked(q)
	}
}

func (c *Core) observeAnswered(q *question.Question, out question.Outcome) {
	if c.obs != nil {
		c.obs.Answered(q, out)
	}
}

func (c *Core) observeClosed(ch Changes) {
	if c.obs == nil {
		return
	}
	for _, cl := range ch.Closed {
		c.obs.Closed(cl.Q, cl.Reason)
	}
}

// Arbiter is an Observer that also decides between answers given in
// several places at once (`elicit serve`: the serving terminal and the
// attached clients, where the first valid completion wins on the host).
// Before an answer given here reaches the agent, Claim returns the outcome
// to send: out itself when it won, or the answer that already won
// elsewhere, so the agent hears what every client was told.
type Arbiter interface {
	Observer
	Claim(q *question.Question, out question.Outcome) question.Outcome
}

// claim asks the Arbiter, if the observer is one, which answer q gets.
// An answer that came from another client already won.
func (c *Core) claim(q *question.Question, out question.Outcome) question.Outcome {
	if a, ok := c.obs.(Arbiter); ok && out.By != question.ByRemote {
		return a.Claim(q, out)
	}
	return out
}
