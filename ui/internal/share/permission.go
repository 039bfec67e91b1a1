package share

import (
	"strings"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/diffview"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
)

// How a permission travels over AHP. AHP's own tool confirmations
// (chat/toolCallReady, answered by chat/toolCallConfirmed with a
// selectedOptionId) fit the decision, but they presuppose the tool call's
// whole life in the chat's state (chat/toolCallStart and its deltas), and
// carry a diff only as references to read with resourceRead, neither of
// which elicit's host mirrors. So a permission is an input request whose
// _meta.elicit.kind is "permission", with one required single-select
// question (the agent's options, by their ids) and the full command and
// diffs in its message; any AHP client can show and answer it, and an
// answer goes back through the session core as the serving terminal's
// would, so what is written must still be what was approved.

// optionQuestion is the id of a permission's one question.
const optionQuestion = "option"

// maxDiffLines bounds one diff in a permission's message.
const maxDiffLines = 2000

// meta is what the request says of q under _meta.elicit.
func (s *Share) meta(q *question.Question) []byte {
	m := ahp.RequestMeta{Kind: ahp.MetaForm, AskedAt: s.o.Now().UTC().Format(time.RFC3339Nano), Tool: q.From.Tool}
	switch {
	case q.Kind == question.Permission:
		m.Kind = ahp.MetaPermission
		if q.Tool != nil && q.Tool.Title != "" {
			m.Tool = q.Tool.Title
		}
		m.Call = toolCall(q)
	case q.Kind == question.URL:
		m.Kind = ahp.MetaURL
	case q.Schema != nil && choice(q.Schema):
		m.Kind = ahp.MetaChoice
	}
	return m.Raw()
}

// choice reports a form of one single-select property: a choice.
func choice(s *schema.Schema) bool {
	return len(s.Fields) == 1 && s.Fields[0].Kind == schema.KindSelect
}

// maxCallBytes bounds the text of a tool call sent whole in a request's
// _meta; a bigger call goes as text alone (the request's message).
const maxCallBytes = 256 << 10

// toolCall is permission q's tool call whole, for the inbox to show as the
// session does; nil past maxCallBytes.
func toolCall(q *question.Question) *ahp.ToolCall {
	c := &ahp.ToolCall{}
	n := 0
	if t := q.Tool; t != nil {
		c.Title, c.Kind, c.Locations = t.Title, t.Kind, t.Locations
		for _, s := range t.Content {
			n += len(s)
			c.Content = append(c.Content, s)
		}
		for _, d := range t.Diffs {
			n += len(d.Path) + len(d.Old) + len(d.New)
			c.Diffs = append(c.Diffs, ahp.CallDiff{Path: d.Path, Old: d.Old, New: d.New})
		}
	}
	if w := q.Write; w != nil {
		c.WritePath, c.WriteRisk, c.WriteWhy = w.Path, w.Risk, w.Why
	}
	if n > maxCallBytes {
		return nil
	}
	return c
}

// permissionRequest is permission q as an input request.
func permissionRequest(id string, q *question.Question, meta []byte) ahp.Request {
	var opts []ahp.Option
	for _, o := range q.Options {
		opts = append(opts, ahp.Option{ID: o.ID, Label: sanitize.Line(o.Name), Description: strings.ReplaceAll(o.Kind, "_", " ")})
	}
	return ahp.Request{ID: id, Message: permissionText(q), Meta: meta, Questions: []ahp.Question{{
		ID: optionQuestion, Kind: ahp.KindSingleSelect, Title: "Allow?", Message: "Pick one of the agent's options.", Required: true, Options: opts}}}
}

// permissionText is what the permission asks, in full: the tool call, the
// file elicit asks about, the call's content (the command) and its diffs.
func permissionText(q *question.Question) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(s); b.WriteByte('\n') }
	if w := q.Write; w != nil {
		line("Write: the agent writes " + w.Path + "; elicit asks because " + w.Why + ".")
		if w.Risk != "" {
			line("Warning: " + w.Path + " runs code later: " + w.Risk + ".")
		}
	} else {
		title := q.From.Tool
		if q.Tool != nil && q.Tool.Title != "" {
			title = q.Tool.Title
		}
		line("Permission: the agent wants to run " + sanitize.Line(title) + ".")
	}
	if q.Message != "" {
		line(q.Message)
	}
	if t := q.Tool; t != nil {
		if t.Kind != "" {
			line("Kind: " + sanitize.Line(t.Kind))
		}
		for _, l := range t.Locations {
			line("Location: " + sanitize.Line(l))
		}
		if len(t.Diffs) == 0 {
			for _, c := range t.Content {
				line(sanitize.Text(strings.TrimRight(c, "\n")))
			}
		}
		for _, d := range t.Diffs {
			for _, s := range diffview.Spoken(diffview.Diff{Path: d.Path, Old: d.Old, New: d.New}, maxDiffLines) {
				line(s)
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// permissionAnswers is a permission's outcome as the request's answers.
func permissionAnswers(out question.Outcome) map[string]ahp.Answer {
	if out.Action != question.Accept || out.Option == "" {
		return nil
	}
	return map[string]ahp.Answer{optionQuestion: {State: ahp.Submitted, Value: &ahp.Value{Kind: ahp.ValueSelected, Selected: out.Option}}}
}

// permissionOutcome is another client's completion of permission q: its
// accept picks the option chosen (the host checked it is one of q's);
// anything else picks none, which is a cancel (nobody granted anything).
func permissionOutcome(q *question.Question, c ahp.Completion, out question.Outcome) question.Outcome {
	a, ok := c.Request.Answers[optionQuestion]
	if c.Response != question.Accept || !ok || a.Value == nil || a.Value.Kind != ahp.ValueSelected {
		out.Action, out.Option = question.Cancel, ""
		return out
	}
	for _, o := range q.Options {
		if o.ID == a.Value.Selected {
			out.Action, out.Option = question.Accept, o.ID
			return out
		}
	}
	out.Action, out.Option = question.Cancel, ""
	return out
}
