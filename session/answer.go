package session

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
)

// Answer gives the user's answer to q: it replies to the agent, takes q
// out of the queue and says what was decided. An answer to a question that
// is no longer waiting (withdrawn meanwhile) only notes that.
func (c *Core) Answer(q *question.Question, out question.Outcome) Changes {
	if c.detached[q] && slices.Contains(c.queue, q) {
		return c.hold(q, out)
	}
	if !c.remove(q) {
		var ch Changes
		ch.note(Notice, "the %s was already closed; your answer was not sent", subject(q))
		return ch
	}
	return c.answer(q, out)
}

// Finish sends an answer that went through the ElicitationResult hooks
// (AfterHooks); the question already left the queue.
func (c *Core) Finish(q *question.Question, out question.Outcome, notes []Note) Changes {
	ch := Changes{Notes: notes}
	ch.Merge(c.send(q, out))
	return ch
}

// answer sends a person's answer to a form or URL through the
// ElicitationResult hooks first (Changes.After, then Finish), and every
// other answer at once.
func (c *Core) answer(q *question.Question, out question.Outcome) Changes {
	if q.Kind != question.Permission && out.By == question.ByPerson && c.hasHooks(config.ElicitationResult) {
		return Changes{After: []Pending{{Q: q, Out: out}}}
	}
	return c.send(q, out)
}

// send hands the outcome, as it is, to the source that asked q (which
// turns it into its wire reply) and notes the decision. A URL of a call
// refused with -32042 has nothing to answer (ID 0): its flow is followed.
func (c *Core) send(q *question.Question, out question.Outcome) Changes {
	var ch Changes
	out = c.claim(q, out)
	c.remember(q, out)
	c.observeAnswered(q, out)
	if q.ID != 0 {
		c.conn.Answer(q, out)
	}
	switch q.Kind {
	case question.Permission:
		id := ""
		if out.Action == question.Accept {
			id = out.Option
		}
		text := subject(q) + ": " + optionName(q, id) + by(out)
		if out.By != question.ByPermissionRule {
			text += reason(out)
		}
		ch.Notes = append(ch.Notes, Note{Level: Decision, Text: text})
		return ch
	case question.URL:
		if out.Action == question.Accept {
			c.addFlow(q)
			if c.doneEarly[q.ElicitationID] { // complete before it was opened: nothing to wait for
				delete(c.doneEarly, q.ElicitationID)
				ch.Notes = append(ch.Notes, Note{Level: Decision, Text: "opened " + q.Report.Site()})
				ch.Merge(c.flowComplete(q.ElicitationID))
				return ch
			}
			text := fmt.Sprintf("opened %s; the flow stays pending until the %s hears back", q.Report.Site(), c.pol.Peer)
			if c.pol.FlowsKey != "" {
				text += " (" + c.pol.FlowsKey + " lists pending flows)"
			}
			ch.Notes = append(ch.Notes, Note{Level: Decision, Text: text})
			return ch
		}
		ch.Notes = append(ch.Notes, Note{Level: Decision, Text: pastTense(out.Action) + " " + subject(q) + by(out) + reason(out)})
		if c.legacyWaiting[q.ElicitationID] {
			c.legacyPrompt, c.legacyWaiting = "", nil
			ch.note(Notice, "the %s that needed it will not be retried", c.pol.Retried)
		}
		return ch
	}
	if out.Action == question.Accept && c.pol.Quiet {
		return ch
	}
	text := pastTense(out.Action) + " " + subject(q) + by(out)
	if out.Action == question.Accept {
		text += ": " + contentSummary(q, out.Content)
	}
	text += reason(out)
	if out.Draft != "" {
		text += "\nwhat you had entered:" + out.Draft
	}
	ch.Notes = append(ch.Notes, Note{Level: Decision, Text: text})
	return ch
}

func by(out question.Outcome) string {
	switch out.By {
	case question.ByPerson:
		return ""
	case question.ByPermissionRule:
		return " (" + sanitize.Summary(out.Reason, 200) + ")" // allowed by Bash(npm test:*) in config.toml
	}
	return " (" + out.By.String() + ")"
}

func reason(out question.Outcome) string {
	if out.Reason == "" {
		return ""
	}
	return ": " + sanitize.Summary(out.Reason, 200)
}

func pastTense(a question.Action) string {
	switch a {
	case question.Accept:
		return "answered"
	case question.Decline:
		return "declined"
	}
	return "cancelled"
}

func optionName(q *question.Question, id string) string {
	for _, o := range q.Options {
		if o.ID == id && id != "" {
			return sanitize.Line(o.Name)
		}
	}
	return "cancelled"
}

// contentSummary is an accepted form's answers on one line, in the form's
// order, with secret-looking fields masked.
func contentSummary(q *question.Question, content map[string]any) string {
	return ContentSummary(q.Schema, content)
}

// ContentSummary is an accepted form's answers on one line (`Name "Ada" ·
// Age 30`), in the order of schema s (nil: by key), secret-looking fields
// masked, sanitized and cut to 200 characters: what every front end
// prints for an answered form.
func ContentSummary(s *schema.Schema, content map[string]any) string {
	if len(content) == 0 {
		return "(no answers)"
	}
	var parts []string
	seen := map[string]bool{}
	if s != nil {
		for _, f := range s.Fields {
			v, ok := content[f.Key]
			if !ok {
				continue
			}
			seen[f.Key] = true
			parts = append(parts, f.Label()+" "+value(v, f.Secret))
		}
	}
	var rest []string
	for k := range content {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		parts = append(parts, sanitize.Line(k)+" "+value(content[k], false))
	}
	return sanitize.Summary(strings.Join(parts, " · "), 200)
}

func value(v any, secret bool) string {
	if secret {
		return "•••"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return sanitize.Line(string(b))
}
