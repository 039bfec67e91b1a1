package session

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/internal/audit"
	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/permissions"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/session/hooks"
)

// Memory is what a session keeps and consults beyond the connection:
// hooks, the history of answers and sites, and the audit log. Each may be
// nil. Reading and running them is I/O: the core asks the views to run
// Prepare and AfterHooks off their event loop, and writes in the
// background.
type Memory struct {
	Hooks   *hooks.Runner
	History *history.Store
	Audit   *audit.Log
	Agent   string // the agent's name: hook globs and history keys
	Cwd     string
	// SessionID returns the session's id when asked (it changes on restart).
	SessionID func() string
	// Rules are the user's permission rules (rules.go), Env where their
	// paths are read from, and Project the file "always allow here"
	// keeps rules in (nil: the choice is not offered).
	Rules   *permissions.Set
	Env     permissions.Env
	Project *config.Project
}

// Prep is what was read for a question before it is shown.
type Prep struct {
	Hook    hooks.Result
	HookErr error
	// Prefill holds remembered answers of the same form ("from last time").
	Prefill   map[string]json.RawMessage
	PrefillAt time.Time
	// Suggestions are recent answers to text fields of the same name.
	Suggestions map[string][]string
	// Visits says how often the user opened the URL's site before.
	Visits string
}

// Pending is a user's answer waiting for the ElicitationResult hooks.
type Pending struct {
	Q   *question.Question
	Out question.Outcome
}

// agentOf names the agent asking q, for history keys and the audit log:
// the question's own (the inbox's come from many), else the session's.
func (c *Core) agentOf(q *question.Question) string {
	if q.From.Agent != "" {
		return q.From.Agent
	}
	return c.mem.Agent
}

func (c *Core) hasHooks(ev config.Event) bool {
	return c.mem.Hooks.Has(ev, c.mem.Agent)
}

// needsPrep says whether q must be prepared (hooks, history) before it is
// answered or shown.
func (c *Core) needsPrep(q *question.Question) bool {
	return q.Kind != question.Permission && (c.hasHooks(config.Elicitation) || c.mem.History != nil)
}

func (c *Core) hookInput(q *question.Question) hooks.Input {
	in := hooks.Input{Message: q.Message, Mode: "form", Cwd: c.mem.Cwd, Agent: c.mem.Agent, ToolCallID: q.From.ToolCall}
	if c.mem.SessionID != nil {
		in.SessionID = c.mem.SessionID()
	}
	if q.Kind == question.URL {
		in.Mode, in.URL, in.ElicitationID = "url", q.URL, q.ElicitationID
	} else if q.Schema != nil {
		in.RequestedSchema = q.RawSchema
	}
	return in
}

// Prepare runs the Elicitation hooks and reads the history for q. It does
// I/O and may take as long as the hooks' timeout: call it off the UI loop,
// then hand the result to Prepared. It reads only what New was given.
func (c *Core) Prepare(ctx context.Context, q *question.Question) Prep {
	var p Prep
	if c.hasHooks(config.Elicitation) {
		p.Hook, p.HookErr = c.mem.Hooks.RunElicitation(ctx, c.hookInput(q))
	}
	h := c.mem.History
	if h == nil || p.Hook.Decision != hooks.Pass || c.byRule(q) {
		return p // what history holds is for a person's screen
	}
	if q.Kind == question.URL {
		v, ok, err := h.Site(q.Report.Site())
		if err == nil {
			p.Visits = history.Describe(v, ok, time.Now())
		}
		return p
	}
	snap, err := h.Snapshot() // one read for the form and all its fields
	if err != nil {
		return p
	}
	agent := c.agentOf(q)
	if r, ok := snap.Answers(agent, FormFingerprint(q.Schema)); ok {
		p.Prefill, p.PrefillAt = r.Values, r.At
	}
	for _, f := range q.Schema.Fields {
		if f.Kind != schema.KindString || f.Secret {
			continue
		}
		if s := snap.Suggestions(agent, f.Key, 5); len(s) > 0 {
			if p.Suggestions == nil {
				p.Suggestions = map[string][]string{}
			}
			p.Suggestions[f.Key] = s
		}
	}
	return p
}

// Prepared goes on with q once Prepare ran: a hook's answer is given (a
// form's content checked like any answer), otherwise q takes the usual
// way (--answers, the policy, the screen) with what history remembered.
func (c *Core) Prepared(q *question.Question, p Prep) Changes {
	var ch Changes
	if !c.take(q, &c.preparing) {
		return ch // closed meanwhile
	}
	if p.HookErr != nil {
		ch.note(Error, "hook: %s", sanitize.Summary(p.HookErr.Error(), 300))
	}
	q.Memory = question.Memory{Prefill: p.Prefill, PrefillAt: p.PrefillAt, Visits: p.Visits, Suggestions: p.Suggestions}
	switch p.Hook.Decision {
	case hooks.Declined:
		ch.Merge(c.answer(q, question.Outcome{Action: question.Decline, By: question.ByHook, Reason: p.Hook.Reason}))
		return ch
	case hooks.Answer:
		out, err := hookOutcome(q, p.Hook)
		if err == nil {
			ch.Merge(c.answer(q, out))
			return ch
		}
		ch.note(Error, "hook %s: %s; asking you instead", sanitize.Line(p.Hook.Hook), sanitize.Summary(err.Error(), 300))
	}
	ch.Merge(c.route(q))
	return ch
}

// hookOutcome turns a hook's answer into an Outcome, checking a form's
// content against its schema. A URL is never accepted by a hook.
func hookOutcome(q *question.Question, r hooks.Result) (question.Outcome, error) {
	out := question.Outcome{By: question.ByHook, Reason: "by " + r.Hook}
	switch r.Action {
	case question.Decline:
		out.Action = question.Decline
		return out, nil
	case question.Cancel:
		out.Action = question.Cancel
		return out, nil
	}
	if q.Kind == question.URL {
		return out, fmt.Errorf("a hook cannot consent to open a URL")
	}
	content, err := q.Schema.FromAnswers(rawObject(r.Content))
	if err != nil {
		return out, err
	}
	out.Action, out.Content = question.Accept, content
	return out, nil
}

// rawObject splits a JSON object into its members (nil when it is not one,
// so that the schema's defaults and required rules judge it).
func rawObject(b json.RawMessage) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &m); err != nil {
		return map[string]json.RawMessage{}
	}
	return m
}

// AfterHooks runs the ElicitationResult hooks on the user's answer and
// returns the answer to send: the user's, or a hook's override. It does
// I/O: call it off the UI loop, then Finish with the result.
func (c *Core) AfterHooks(ctx context.Context, p Pending) (question.Outcome, []Note) {
	in := c.hookInput(p.Q)
	in.Action = p.Out.Action
	if p.Out.Action == question.Accept && p.Out.Content != nil {
		in.Content, _ = json.Marshal(p.Out.Content)
	}
	r, err := c.mem.Hooks.RunElicitationResult(ctx, in)
	var notes []Note
	if err != nil {
		notes = append(notes, Note{Level: Error, Text: "hook: " + sanitize.Summary(err.Error(), 300)})
	}
	out := p.Out
	switch r.Decision {
	case hooks.Declined:
		out = question.Outcome{Action: question.Decline, By: question.ByHook, Reason: r.Reason}
	case hooks.Answer:
		o, err := hookOutcome(p.Q, r)
		if err != nil {
			notes = append(notes, Note{Level: Error, Text: "hook " + sanitize.Line(r.Hook) + ": " + sanitize.Summary(err.Error(), 300) + "; your answer stands"})
			break
		}
		out = o
	}
	return out, notes
}

// remember writes what the session keeps of an answer, in the background:
// the audit entry, an answer the user gave to a form, an opened site.
// With no audit log and nothing for the history (a form answered by a
// rule, as with --accept-defaults), it does nothing: no encoding, and no
// hand-off to the writer's goroutine for every form.
func (c *Core) remember(q *question.Question, out question.Outcome) {
	mem := c.mem
	opened := q.Kind == question.URL && out.Action == question.Accept
	keepAnswers := q.Kind == question.Form && out.Action == question.Accept && out.By == question.ByPerson
	if mem.Audit == nil && (mem.History == nil || !keepAnswers && !opened) {
		return
	}
	e := audit.Entry{Time: c.now(), Agent: c.agentOf(q), Kind: audit.Kind(q.Kind.String()), Message: sanitize.Summary(q.Message, 200), Outcome: string(out.Action), AnsweredBy: source(out.By), Note: out.Reason, Rule: out.Rule}
	if mem.SessionID != nil {
		e.Session = mem.SessionID()
	}
	if q.Kind == question.Permission {
		e.Kind, e.Message, e.Outcome = audit.Permission, q.From.Tool, out.Option
		if q.Write != nil {
			e.Kind, e.Message = audit.Write, q.Write.Path
		}
	}
	if q.Kind == question.URL {
		e.Kind, e.Site = audit.URL, q.Report.Site()
	}
	var values map[string]json.RawMessage
	var fp string
	secret := func(string) bool { return true }
	if q.Kind == question.Form && out.Action == question.Accept {
		raw, _ := json.Marshal(out.Content)
		secret = Secret(q.Schema)
		if mem.Audit != nil {
			_ = e.SetContent(raw, secret)
		}
		if keepAnswers {
			values, fp = rawObject(raw), FormFingerprint(q.Schema)
		}
	}
	agent, site, now := e.Agent, e.Site, c.now()
	c.bg(func() {
		if err := mem.Audit.Record(e); err != nil {
			c.bgErr("audit log", err)
		}
		if mem.History == nil {
			return
		}
		if values != nil {
			if err := mem.History.RememberAnswers(agent, fp, values, secret); err != nil {
				c.bgErr("history", err)
			}
		}
		if opened {
			if err := mem.History.RecordSite(site, now); err != nil {
				c.bgErr("history", err)
			}
		}
	})
}

func source(w question.By) audit.Source {
	switch w {
	case question.ByPerson, question.ByRemote:
		return audit.ByUser
	case question.ByHook:
		return audit.ByHook
	case question.ByAnswers:
		return audit.ByAnswersFile
	case question.ByPermissionRule:
		return audit.ByRule
	}
	return audit.ByAuto
}

// Settle runs what ch asks to run off the loop (Prepare, AfterHooks, KeepRule)
// right away, for front ends that can wait (-p, the accessible session),
// and returns the changes with nothing left to run.
func (c *Core) Settle(ctx context.Context, ch Changes) Changes {
	for len(ch.Prepare) > 0 || len(ch.After) > 0 || len(ch.Keep) > 0 {
		prep, after, keep := ch.Prepare, ch.After, ch.Keep
		ch.Prepare, ch.After, ch.Keep = nil, nil, nil
		for _, k := range keep {
			ch.Notes = append(ch.Notes, c.KeepRule(ctx, k)...)
		}
		for _, q := range prep {
			ch.Merge(c.Prepared(q, c.Prepare(ctx, q)))
		}
		for _, p := range after {
			out, notes := c.AfterHooks(ctx, p)
			ch.Merge(c.Finish(p.Q, out, notes))
		}
	}
	return ch
}
