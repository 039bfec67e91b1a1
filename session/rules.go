package session

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/permissions"
	"github.com/elicit-dev/elicit/question"
)

// The user's permission rules (package permissions) decide permissions
// here, in every front end, before anyone is asked: the agent's
// session/request_permission, and the writes and commands elicit asks
// about itself (acpconn hands those to the session as permission
// questions when a rule names them). A deny rule refuses, an allow rule
// allows, each with the agent's allow_once or reject_once option (never
// an "always" one); an ask rule asks the person, and where there is none
// (-p) it refuses. A file that runs code later is never allowed without a
// person, whatever the rules or --approve say.

// ruled is the answer the rules give to permission q, if any: ok is
// false when the person is to be asked (an ask rule, a file that runs
// code later) or when no rule names q (auto decides then).
func (c *Core) ruled(q *question.Question, person bool) (out question.Outcome, ok bool) {
	d := c.decide(q)
	risk, riskPath := riskOf(q)
	switch {
	case d.Verdict == permissions.Deny:
		return c.byRuleOutcome(q, d, false, "denied by "+d.Rule.Short()), true
	case risk != "" && !person:
		// Never allowed without a person: not by --approve, not by a rule.
		why := fmt.Sprintf("%s runs code later (%s): only a person, or --allow-write %s, allows it", riskPath, risk, sanitize.DiffLine(filepath.ToSlash(riskPath)))
		out := question.Outcome{Action: question.Accept, Option: pickPermission(q, false), By: question.ByRule, Reason: why}
		if out.Option == "" {
			out = question.Outcome{Action: question.Cancel, By: question.ByRule, Reason: why}
		}
		return out, true
	case risk != "", d.Verdict == permissions.Ask && person:
		return question.Outcome{}, false
	case d.Verdict == permissions.Ask:
		return c.byRuleOutcome(q, d, false, "asked by "+d.Rule.Short()+", and there is no one to ask"), true
	case d.Verdict == permissions.Allow:
		return c.byRuleOutcome(q, d, true, "allowed by "+d.Rule.Short()), true
	}
	return question.Outcome{}, false
}

// decide is the rules' verdict on q.
func (c *Core) decide(q *question.Question) permissions.Decision {
	if q.Kind != question.Permission || c.mem.Rules == nil {
		return permissions.Decision{}
	}
	return c.mem.Rules.Decide(describe(q.Tool, c.mem.Env.Cwd), c.mem.Env)
}

// describe is the call rules read of permission tool t.
func describe(t *question.Tool, cwd string) permissions.Call {
	if t == nil {
		return permissions.Call{}
	}
	return permissions.Describe(permissions.Tool{Name: t.Name, Kind: t.Kind, Title: t.Title, Input: t.Input, Files: t.Files}, cwd)
}

// byRuleOutcome picks the agent's allow_once (allow) or reject_once
// option, as rule d says; an agent that offers neither gets cancel.
func (c *Core) byRuleOutcome(q *question.Question, d permissions.Decision, allow bool, reason string) question.Outcome {
	out := question.Outcome{Action: question.Accept, Option: pickPermission(q, allow), By: question.ByPermissionRule, Reason: reason, Rule: d.Rule.String()}
	if out.Option == "" {
		out.Action = question.Cancel
		out.Reason += fmt.Sprintf("; the agent offered no %s option", map[bool]string{true: "allow_once", false: "reject_once"}[allow])
	}
	return out
}

// riskOf says why a file q writes runs code later, and which ("" when
// none does, or --allow-write names it).
func riskOf(q *question.Question) (risk, path string) {
	if w := q.Write; w != nil && w.Risk != "" {
		return w.Risk, w.Path
	}
	if t := q.Tool; t != nil && t.Risk != "" {
		return t.Risk, t.RiskPath
	}
	return "", ""
}

// Rules are the permission rules in force, in order.
func (c *Core) Rules() []*permissions.Rule { return c.mem.Rules.Rules() }

// AllowHere is the rule "always allow here" would keep for permission q:
// the narrowest rule that names its call, when the session keeps a
// project's rules, no rule decides the call yet, no file it writes runs
// code later, and the agent offers an allow_once option. ok is false
// otherwise (the choice is not offered).
func (c *Core) AllowHere(q *question.Question) (rule string, ok bool) {
	if q == nil || q.Kind != question.Permission || c.mem.Project == nil || c.mem.Rules == nil || pickPermission(q, true) == "" {
		return "", false
	}
	if risk, _ := riskOf(q); risk != "" || c.decide(q).Verdict != permissions.None {
		return "", false
	}
	return permissions.Narrowest(describe(q.Tool, c.mem.Env.Cwd), c.mem.Env)
}

// AnswerAllowHere answers q with the agent's allow_once option and asks
// the front end to keep the rule AllowHere names (Changes.Keep: run
// KeepRule off the loop), so the next call like it is allowed without
// asking, in this session and the next ones in this directory. Should no
// rule be keepable any more (one was added meanwhile), the person's allow
// is sent all the same, and a note says nothing was kept.
func (c *Core) AnswerAllowHere(q *question.Question) Changes {
	rule, keep := c.AllowHere(q)
	out := question.Outcome{Action: question.Accept, Option: pickPermission(q, true)}
	if out.Option == "" {
		out = question.Outcome{Action: question.Cancel}
	}
	ch := c.Answer(q, out)
	if keep {
		ch.Keep = append(ch.Keep, Keep{Rule: rule})
	} else {
		ch.note(Notice, "no rule was kept for the %s", subject(q))
	}
	return ch
}

// Keep is a rule to write to the project's rules file (KeepRule).
type Keep struct{ Rule string }

// KeepRule writes k's rule to the project's rules file and puts it in
// force; the notes say where it went, or why it did not. It does I/O:
// call it off the UI loop.
func (c *Core) KeepRule(ctx context.Context, k Keep) []Note {
	p := c.mem.Project
	if p == nil {
		return nil
	}
	if err := p.Allow(k.Rule); err != nil {
		return []Note{{Level: Error, Text: fmt.Sprintf("could not keep %s: %s", sanitize.Line(k.Rule), sanitize.Summary(err.Error(), 300))}}
	}
	rules, err := p.Rules()
	if err != nil {
		return []Note{{Level: Error, Text: fmt.Sprintf("kept %s, but %s", sanitize.Line(k.Rule), sanitize.Summary(err.Error(), 300))}}
	}
	for _, r := range rules {
		if r.Text == k.Rule && r.Verdict == permissions.Allow && !c.inForce(r) {
			c.mem.Rules.Add(r)
		}
	}
	return []Note{{Level: Info, Text: fmt.Sprintf("always allowed here: %s, kept in %s (/permissions lists and removes rules)", sanitize.Line(k.Rule), sanitize.Line(p.Path))}}
}

// inForce reports whether a rule with r's text, verdict and file is in
// force already.
func (c *Core) inForce(r *permissions.Rule) bool {
	for _, x := range c.mem.Rules.Rules() {
		if x.Text == r.Text && x.Verdict == r.Verdict && x.Source.File == r.Source.File {
			return true
		}
	}
	return false
}

// ForgetRule takes r out of force and, when "always allow here" kept it,
// out of the project's rules file; a rule written in another file stays
// there (the note says where, to edit it). It does I/O: call it off the
// UI loop.
func (c *Core) ForgetRule(ctx context.Context, r *permissions.Rule) []Note {
	p := c.mem.Project
	if p == nil || r.Source.File != p.Path {
		return []Note{{Level: Notice, Text: fmt.Sprintf("%s is written in %s: edit that file to remove it", sanitize.Line(r.Text), sanitize.Line(r.Source.String()))}}
	}
	if _, err := p.Remove(r.Text); err != nil {
		return []Note{{Level: Error, Text: fmt.Sprintf("could not remove %s: %s", sanitize.Line(r.Text), sanitize.Summary(err.Error(), 300))}}
	}
	c.mem.Rules.Remove(r)
	return []Note{{Level: Info, Text: fmt.Sprintf("removed %s from %s: its calls are asked again", sanitize.Line(r.Text), sanitize.Line(p.Path))}}
}

// DescribeRules is the rules in force as lines for /permissions: each
// numbered, with its list and where it is written.
func DescribeRules(rules []*permissions.Rule) []string {
	if len(rules) == 0 {
		return []string{"no permission rules: each permission is asked (-p refuses it); see [permissions] in the config file"}
	}
	out := make([]string, 0, len(rules))
	for i, r := range rules {
		out = append(out, fmt.Sprintf("%d. %s %s  (%s)", i+1, r.Verdict, sanitize.Line(r.Text), sanitize.Line(r.Source.String())))
	}
	return out
}
