package session

// Observer hears about the questions a person is asked: one queued for the
// user (Asked), answered by anyone (Answered, with the outcome and who gave
// it), or closed without an answer (Closed: withdrawn, the agent gone).
// `elicit serve` mirrors questions to other clients with it, so each front
// end need not. Its methods run on the caller's loop and must not block.
type Observer interface {
	Asked(q *Question)
	Answered(q *Question, out Outcome)
	Closed(q *Question, reason string)
}

// SetObserver sets the one observer (nil: none).
func (c *Core) SetObserver(o Observer) { c.obs = o }

func (c *Core) observeAsked(q *Question) {
	if c.obs != nil {
		c.obs.Asked(q)
	}
}

func (c *Core) observeAnswered(q *Question, out Outcome) {
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
