package session

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/elicit-dev/elicit/question"
)

// A remote agent's connection can drop while a question is open. ACP v1
// replays nothing on a new connection: the request the question answers
// is gone with the old one. What the protocol allows is this: the
// question stays open (with everything the user typed), and when the
// agent, its session taken up again, asks the same question once more,
// the open one answers the new request. An answer given while the
// connection is down is kept and sent then. A question the agent does not
// ask again is closed by Expire, its draft kept in the transcript.

// Detach keeps the open questions of a connection that was lost (a remote
// agent's, which a front end reconnects to): each is kept detached (see
// IsDetached) instead of closed. Questions still being prepared are
// closed.
func (c *Core) Detach() Changes {
	var ch Changes
	for _, q := range c.preparing {
		ch.Closed = append(ch.Closed, Closed{Q: q, Reason: "the connection to the agent was lost"})
	}
	c.preparing = nil
	for _, q := range c.queue {
		c.detached[q] = true
	}
	if n := len(c.queue); n > 0 {
		ch.note(Notice, "%s kept open: each is answered if the agent asks it again once reconnected", plural(n, "question is", "questions are"))
	}
	return ch
}

// Reattach points the core at the new connection to the same agent (after
// Detach); the detached questions wait for the agent to ask them again
// until Expire.
func (c *Core) Reattach(conn Source) { c.conn = conn }

// Expire closes the detached questions the agent did not ask again, and
// reports the answers that could not be sent; what the user typed is in
// the notes and the Closed reasons' drafts.
func (c *Core) Expire(reason string) Changes {
	ch := c.expire(reason)
	c.observeClosed(ch)
	return ch
}

func (c *Core) expire(reason string) Changes {
	var ch Changes
	keep := c.queue[:0]
	for _, q := range c.queue {
		if c.detached[q] {
			delete(c.detached, q)
			ch.Closed = append(ch.Closed, Closed{Q: q, Reason: reason})
			continue
		}
		keep = append(keep, q)
	}
	c.queue = keep
	for _, h := range c.held {
		text := "your answer to the " + subject(h.q) + " was not sent: " + reason
		if h.out.Action == question.Accept && h.q.Kind == question.Form {
			text += "\nwhat you had entered: " + contentSummary(h.q, h.out.Content)
		} else if h.out.Draft != "" {
			text += "\nwhat you had entered:" + h.out.Draft
		}
		ch.Notes = append(ch.Notes, Note{Level: Notice, Text: text})
	}
	c.held = nil
	return ch
}

// Detached reports whether questions wait for the agent to ask again.
func (c *Core) Detached() bool {
	return len(c.held) > 0 || len(c.detached) > 0
}

// IsDetached reports whether q is kept open while its connection is lost
// and a new one is made: it answers the agent's next request for the same
// thing (see Detach).
func (c *Core) IsDetached(q *question.Question) bool { return c.detached[q] }

// hold keeps the answer to a detached question until the agent asks it
// again.
func (c *Core) hold(q *question.Question, out question.Outcome) Changes {
	c.remove(q)
	delete(c.detached, q)
	c.held = append(c.held, held{q, out})
	var ch Changes
	ch.note(Notice, "the connection to the agent is down: your answer to the %s is kept, and sent if the agent asks again once reconnected", subject(q))
	return ch
}

// rebind finds the detached question (or held answer) that a new request
// asks again, and makes it answer the new request: true when it did.
func (c *Core) rebind(q *question.Question) (Changes, bool) {
	var ch Changes
	for _, old := range c.queue {
		if c.detached[old] && sameQuestion(old, q) {
			delete(c.detached, old)
			old.ID = q.ID
			ch.note(Info, "the agent asked the %s again after the reconnect: it is still open, with what you typed", subject(old))
			return ch, true
		}
	}
	for i, h := range c.held {
		if sameQuestion(h.q, q) {
			c.held = slices.Delete(c.held, i, i+1)
			h.q.ID = q.ID
			ch.note(Info, "the agent asked the %s again after the reconnect: your answer was sent", subject(h.q))
			ch.Merge(c.answer(h.q, h.out))
			return ch, true
		}
	}
	return ch, false
}

// sameQuestion says whether b asks what a asked: the same permission for
// the same tool call, the same URL flow, or the same form (message and
// schema) in the same session.
func sameQuestion(a, b *question.Question) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case question.Permission:
		if a.From.ToolCall != b.From.ToolCall || len(a.Options) != len(b.Options) {
			return false
		}
		for i := range a.Options {
			if a.Options[i].ID != b.Options[i].ID {
				return false
			}
		}
		return true
	case question.URL:
		return a.From.Session == b.From.Session &&
			(a.ElicitationID == b.ElicitationID || a.URL == b.URL && a.Message == b.Message)
	}
	return a.From.Session == b.From.Session && a.Message == b.Message &&
		compactEqual(a.RawSchema, b.RawSchema)
}

// compactEqual compares two JSON texts without their white space.
func compactEqual(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
