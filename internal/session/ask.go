package session

import (
	"encoding/json"

	"github.com/elicit-dev/elicit/acpconn"
)

// ask answers q at once when a rule says so (--answers, no person, paused,
// too many waiting), and queues it for the user otherwise.
func (c *Core) ask(q *Question) Changes {
	if ch, ok := c.rebind(q); ok {
		return ch
	}
	if c.needsPrep(q) {
		c.preparing = append(c.preparing, q)
		return Changes{Prepare: []*Question{q}}
	}
	return c.route(q)
}

// route answers q by rule or queues it, once it is prepared.
func (c *Core) route(q *Question) Changes {
	if out, ok := c.auto(q); ok {
		return c.answer(q, out)
	}
	if len(c.queue) > c.pol.MaxWaiting { // the front one is being answered
		return c.answer(q, Outcome{Action: refusal(q), By: ByLimit})
	}
	c.queue = append(c.queue, q)
	c.observeAsked(q)
	return Changes{Asked: []*Question{q}}
}

// refusal is the answer that gives nothing away: decline a form or URL,
// cancel a permission.
func refusal(q *Question) Action {
	if q.Kind == Permission {
		return Cancel
	}
	return Decline
}

// auto is the answer a rule gives without asking, if any.
func (c *Core) auto(q *Question) (Outcome, bool) {
	switch q.Kind {
	case Permission:
		if c.pol.Person && !c.pol.PermissionsByRule {
			return Outcome{}, false
		}
		if w := q.Perm.Write; w != nil && w.Risk != "" {
			// A write that runs code later is never approved by a rule.
			return Outcome{Action: Choose, OptionID: acpconn.WriteRefuse, By: ByPolicy, Reason: w.Path + " runs code later: " + w.Risk}, true
		}
		id := pickPermission(q.Perm, c.pol.Approve)
		if id == "" {
			return Outcome{Action: Cancel, By: ByPolicy}, true
		}
		return Outcome{Action: Choose, OptionID: id, By: ByPolicy}, true
	case Form:
		if c.pol.Answers != nil {
			return fromAnswers(q, c.pol.Answers, ByAnswers), true
		}
		if !c.pol.Person {
			if c.pol.AcceptDefaults {
				return fromAnswers(q, nil, ByDefaults), true
			}
			return Outcome{Action: Decline, By: ByPolicy, Reason: "no --answers file, and --accept-defaults was not given"}, true
		}
	case URL:
		if !c.pol.Person && !c.pol.ApproveURLs {
			return Outcome{Action: Decline, By: ByPolicy, Reason: "no terminal to ask for consent"}, true
		}
	}
	if c.paused {
		return Outcome{Action: Decline, By: ByLimit, Reason: "questions from this " + c.pol.Peer + " are paused"}, true
	}
	return Outcome{}, false
}

// byRule says whether a rule, not a person, answers q (auto, before any
// pause): -p with or without --answers and --accept-defaults. Prepare reads
// no history for such a question: prefills and suggestions are shown to a
// person, and a rule never uses them.
func (c *Core) byRule(q *Question) bool {
	switch q.Kind {
	case Form:
		return c.pol.Answers != nil || !c.pol.Person
	case URL:
		return !c.pol.Person
	}
	return false
}

// fromAnswers fills a form from an answers file and the defaults; a form
// it cannot fill is declined with the reason.
func fromAnswers(q *Question, answers map[string]json.RawMessage, by Who) Outcome {
	content, err := q.Elicit.Schema.FromAnswers(answers)
	if err != nil {
		return Outcome{Action: Decline, By: by, Reason: err.Error()}
	}
	return Outcome{Action: Accept, Content: content, By: by}
}

// pickPermission chooses the first allow-once option when approving, else
// the first reject-once; "" when neither is offered (then: cancelled).
func pickPermission(p acpconn.PermissionRequest, approve bool) string {
	want := []string{"reject_once", "reject_always"}
	if approve {
		want = []string{"allow_once", "allow_always"}
	}
	for _, k := range want {
		for _, o := range p.Options {
			if o.Kind == k {
				return o.ID
			}
		}
	}
	return ""
}
