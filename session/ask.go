package session

import (
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
)

// ask answers q at once when a rule says so (--answers, no person, paused,
// too many waiting), and queues it for the user otherwise.
func (c *Core) ask(q *question.Question) Changes {
	if ch, ok := c.rebind(q); ok {
		return ch
	}
	if c.needsPrep(q) {
		c.preparing = append(c.preparing, q)
		return Changes{Prepare: []*question.Question{q}}
	}
	return c.route(q)
}

// route answers q by rule or queues it, once it is prepared.
func (c *Core) route(q *question.Question) Changes {
	if out, ok := c.auto(q); ok {
		return c.answer(q, out)
	}
	if len(c.queue) > c.pol.MaxWaiting { // the front one is being answered
		return c.answer(q, question.Outcome{Action: question.Cancel, By: question.ByLimit, Reason: fmt.Sprintf("%d questions were already waiting behind the one being answered", c.pol.MaxWaiting)})
	}
	c.queue = append(c.queue, q)
	c.observeAsked(q)
	return Changes{Asked: []*question.Question{q}}
}

// The rule for every answer given without a person, in every front end
// and for every protocol, is this file's: accept only with content a
// person gave, or their --answers or --accept-defaults; decline only when
// a person, --decline, a hook or a rule said no; anything else (no
// terminal, nothing given, answers that do not fit the form, too many
// questions waiting, questions paused) is cancel, with the reason, which
// the notes and the audit log carry. Agents and servers read decline as a
// person's "no" and act on it; cancel says that nobody chose. Pausing is
// the person's standing "not now", not a no to questions they never saw.
// A permission nobody is asked is cancelled, unless a rule picks an
// option: the user's permission rules (rules.go), --approve, or -p's
// documented refusal (see auto). A rule picks allow_once or reject_once,
// never an "always" option: what the agent makes of "always" is the
// person's to choose.

// Reasons for answers given without a person.
const (
	whyNoForm    = "no person to ask, and neither --answers nor --accept-defaults was given"
	whyNoConsent = "no person to consent to opening it"
	whyDecline   = "--decline"
)

// auto is the answer a rule gives without asking, if any.
func (c *Core) auto(q *question.Question) (question.Outcome, bool) {
	switch q.Kind {
	case question.Permission:
		person := c.pol.Person && !c.pol.PermissionsByRule
		if out, ok := c.ruled(q, person); ok || person {
			return out, ok // the user's permission rules (rules.go), else the person
		}
		id := pickPermission(q, c.pol.Approve)
		if id == "" {
			return question.Outcome{Action: question.Cancel, By: question.ByRule, Reason: "the agent offered no " + map[bool]string{true: "allow_once", false: "reject_once"}[c.pol.Approve] + " option"}, true
		}
		return question.Outcome{Action: question.Accept, Option: id, By: question.ByRule}, true
	case question.Form:
		if c.pol.Answers != nil || !c.pol.Person {
			return Unattended(question.Form, q.Schema, c.pol)
		}
	case question.URL:
		if out, ok := Unattended(question.URL, nil, c.pol); ok && !c.pol.Person {
			return out, true
		}
	}
	if c.paused {
		return question.Outcome{Action: question.Cancel, By: question.ByLimit, Reason: "questions from this " + c.pol.Peer + " are paused"}, true
	}
	return question.Outcome{}, false
}

// Unattended is the answer to a form (with schema s) or a URL that no
// person is asked, by the rule above: pol's --answers, then
// --accept-defaults, fill a form, and a form they cannot fill is
// cancelled with the reason; --decline declines; anything else is
// cancelled, saying why. ok is false when no rule answers: a URL under
// --approve-urls, which the front end opens itself, and a permission.
// Front ends that answer without the core (elicit form, elicit attach
// --answers) call it too, so that every one follows the same rule.
func Unattended(k question.Kind, s *schema.Schema, pol Policy) (out question.Outcome, ok bool) {
	switch k {
	case question.Form:
		switch {
		case pol.Answers != nil:
			return fromAnswers(s, pol.Answers, question.ByAnswers), true
		case pol.AcceptDefaults:
			return fromAnswers(s, nil, question.ByDefaults), true
		case pol.Decline:
			return question.Outcome{Action: question.Decline, By: question.ByRule, Reason: whyDecline}, true
		}
		return question.Outcome{Action: question.Cancel, By: question.ByRule, Reason: whyNoForm}, true
	case question.URL:
		switch {
		case pol.ApproveURLs:
			return question.Outcome{}, false
		case pol.Decline:
			return question.Outcome{Action: question.Decline, By: question.ByRule, Reason: whyDecline}, true
		}
		return question.Outcome{Action: question.Cancel, By: question.ByRule, Reason: whyNoConsent}, true
	}
	return question.Outcome{}, false
}

// byRule says whether a rule, not a person, answers q (auto, before any
// pause): -p with or without --answers and --accept-defaults. Prepare reads
// no history for such a question: prefills and suggestions are shown to a
// person, and a rule never uses them.
func (c *Core) byRule(q *question.Question) bool {
	switch q.Kind {
	case question.Form:
		return c.pol.Answers != nil || !c.pol.Person
	case question.URL:
		return !c.pol.Person
	}
	return false
}

// fromAnswers fills a form from answers and the defaults; a form they
// cannot fill is cancelled with the reason (nobody said no to it).
func fromAnswers(s *schema.Schema, answers map[string]json.RawMessage, by question.By) question.Outcome {
	content, err := s.FromAnswers(answers)
	if err != nil {
		return question.Outcome{Action: question.Cancel, By: by, Reason: err.Error()}
	}
	return question.Outcome{Action: question.Accept, Content: content, By: by}
}

// pickPermission chooses the first allow_once option when approving, else
// the first reject_once; "" when the agent offers none (then: cancelled).
// An "always" option is never picked: it would grant (or refuse) more
// than this one call, on the agent's side.
func pickPermission(p *question.Question, approve bool) string {
	want := "reject_once"
	if approve {
		want = "allow_once"
	}
	for _, o := range p.Options {
		if o.Kind == want {
			return o.ID
		}
	}
	return ""
}
