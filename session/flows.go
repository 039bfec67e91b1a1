package session

import (
	"time"

	"github.com/elicit-dev/elicit/question"
)

// Flow is a URL the user opened, waiting for the agent's
// elicitation/complete.
type Flow struct {
	Q       *question.Question
	Started time.Time
	// Legacy marks the flow of a call refused with -32042 (its question
	// has nothing to answer): the call is offered again once it is done.
	Legacy bool
}

// Flows returns the pending URL flows, oldest first.
func (c *Core) Flows() []*Flow { return c.flows }

func (c *Core) addFlow(q *question.Question) {
	for _, f := range c.flows {
		if f.Q.ElicitationID == q.ElicitationID {
			return
		}
	}
	c.flows = append(c.flows, &Flow{Q: q, Started: c.now(), Legacy: q.ID == 0})
}

// MarkDone ends a flow as if the agent had reported it complete.
func (c *Core) MarkDone(f *Flow) Changes {
	return c.complete(f.Q.ElicitationID, "marked the flow on %s done")
}

// Drop stops waiting for a flow; a prompt that needed it is not retried.
func (c *Core) Drop(f *Flow) Changes {
	var ch Changes
	for i, x := range c.flows {
		if x == f {
			c.flows = append(c.flows[:i], c.flows[i+1:]...)
			ch.note(Info, "stopped waiting for the flow on %s", f.Q.Report.Site())
			if c.legacyWaiting[f.Q.ElicitationID] {
				c.legacyPrompt, c.legacyWaiting = "", nil
				ch.note(Notice, "the %s that needed it will not be retried", c.pol.Retried)
			}
		}
	}
	return ch
}

// flowComplete is the peer's elicitation/complete for id. A flow whose URL
// is still asked (its consent up, or the browser still being started: a
// fast sign-in, or a URL opened by hand, can finish first) is noted, and
// ends the moment the URL is accepted, so it never waits for a completion
// that already came. Only ids of URLs still asked are kept.
func (c *Core) flowComplete(id string) Changes {
	if c.asksURL(id) {
		for x := range c.doneEarly {
			if !c.asksURL(x) {
				delete(c.doneEarly, x) // declined, cancelled or withdrawn since
			}
		}
		if c.doneEarly == nil {
			c.doneEarly = map[string]bool{}
		}
		c.doneEarly[id] = true
		return Changes{}
	}
	return c.complete(id, "the "+c.pol.Peer+" reports the flow on %s is complete")
}

// asksURL reports whether a URL question with elicitation id id is still
// asked (queued, or being prepared).
func (c *Core) asksURL(id string) bool {
	for _, list := range [][]*question.Question{c.queue, c.preparing} {
		for _, q := range list {
			if q.Kind == question.URL && q.ElicitationID == id {
				return true
			}
		}
	}
	return false
}

// complete ends the flow with that id. Unknown and repeated ids are
// ignored, as the protocol requires; the last flow of a -32042 prompt
// offers (or, with AutoRetry, sends) the prompt again.
func (c *Core) complete(id, format string) Changes {
	var ch Changes
	for i, f := range c.flows {
		if f.Q.ElicitationID != id {
			continue
		}
		c.flows = append(c.flows[:i], c.flows[i+1:]...)
		ch.note(Info, format, f.Q.Report.Site())
		if !c.legacyWaiting[id] {
			return ch
		}
		delete(c.legacyWaiting, id)
		if len(c.legacyWaiting) > 0 {
			return ch
		}
		prompt := c.legacyPrompt
		c.legacyPrompt, c.legacyWaiting = "", nil
		if c.pol.AutoRetry {
			ch.note(Info, "retrying the %s", c.pol.Retried)
			ch.Send = prompt
		} else {
			ch.Retry = prompt
		}
		return ch
	}
	return ch
}
