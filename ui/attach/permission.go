package attach

import (
	"strings"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// A permission of elicit's host (ui/internal/share) is an input request
// marked so in its _meta, with one single-select question: the agent's
// options by their ids. Only a same-user connection (the inbox) is sent
// one. It becomes a question.Permission, the dialog a session shows: the
// tool call whole when _meta carries it (its diffs in full), else the
// request's text, which says the same in words. The answer is the option
// picked; the session's core checks it as its own terminal's.

// isPermission reports whether req is a permission of elicit's host.
func isPermission(req *ahp.Request) bool {
	return ahp.MetaOf(req).Kind == ahp.MetaPermission && len(req.Questions) == 1 && req.Questions[0].Kind == ahp.KindSingleSelect
}

// optionKinds are the kinds of option a permission offers, as ACP names
// them; the host sends them in words ("allow once").
var optionKinds = map[string]bool{"allow_once": true, "allow_always": true, "reject_once": true, "reject_always": true}

// asPermission makes q the permission req asks, every text sanitized.
func asPermission(q *question.Question, req *ahp.Request) {
	m := ahp.MetaOf(req)
	q.Kind = question.Permission
	q.From.Tool = sanitize.Line(m.Tool)
	for _, o := range req.Questions[0].Options {
		kind := strings.ReplaceAll(strings.TrimSpace(o.Description), " ", "_")
		if !optionKinds[kind] {
			kind = ""
		}
		q.Options = append(q.Options, question.Option{ID: o.ID, Name: sanitize.Line(o.Label), Kind: kind})
	}
	c := m.Call
	if c == nil {
		// The call was too big to send whole: its text says it.
		q.Tool = &question.Tool{Title: q.From.Tool, Content: []string{"```text\n" + q.Message + "\n```"}}
		return
	}
	t := &question.Tool{Title: sanitize.Line(c.Title), Kind: sanitize.Line(c.Kind)}
	for _, l := range c.Locations {
		t.Locations = append(t.Locations, sanitize.Line(l))
	}
	for _, s := range c.Content {
		t.Content = append(t.Content, sanitize.Text(s))
	}
	for _, d := range c.Diffs { // drawn by diffview, which makes each line safe
		t.Diffs = append(t.Diffs, question.Diff{Path: d.Path, Old: d.Old, New: d.New})
		t.Files = append(t.Files, d.Path)
	}
	if t.Title == "" {
		t.Title = q.From.Tool
	}
	q.Tool = t
	if c.WritePath != "" {
		q.Write = &question.Write{Path: sanitize.Line(c.WritePath), Risk: sanitize.Line(c.WriteRisk), Why: sanitize.Line(c.WriteWhy)}
	}
}

// permissionAnswers are the request's answers for outcome out: the option
// picked, when one was.
func permissionAnswers(req *ahp.Request, out question.Outcome) map[string]ahp.Answer {
	if out.Action != question.Accept || out.Option == "" {
		return nil
	}
	return map[string]ahp.Answer{req.Questions[0].ID: {State: ahp.Submitted, Value: &ahp.Value{Kind: ahp.ValueSelected, Selected: out.Option}}}
}

// optionName is the name of q's option id, for the log.
func optionName(q *question.Question, id string) string {
	for _, o := range q.Options {
		if o.ID == id {
			return o.Name
		}
	}
	return "no option"
}
