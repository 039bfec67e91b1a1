package acpconn

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
)

// qwen-code (0.24.4) asks its ask_user_question tool's questions inside a
// permission request, not as an elicitation: the tool call's rawInput
// (and _meta.qwenQuestions) holds the questions, _meta says
// qwenInteractionKind "user_question" and toolName "ask_user_question",
// and the options are Submit (proceed_once, allow_once) and Cancel
// (cancel, reject_once). It reads the answers from the response, beside
// the outcome: {"outcome":{"outcome":"selected","optionId":"proceed_once"},
// "answers":{"0":"Red","1":"A, B"}}, keyed by the question's index, a
// multi-select's labels joined with ", " (its own dialog's spelling), a
// typed "Other" answer as the text itself (see its AskUserQuestionDialog
// and Session.ts). elicit asks them as the form they are: the fields
// claude-agent-acp's AskUserQuestion form has (question_N, and
// question_N_custom for "Other"), so every front end shows a form and
// --answers fills it the same way. No library speaks qwen's extension.

// maxQwenQuestions is the most questions read as a form (two properties
// each); qwen itself asks 1 to 4.
const maxQwenQuestions = schema.MaxProperties / 2

// qwenQuestion is one question of qwen's ask_user_question tool.
type qwenQuestion struct {
	Question    string       `json:"question"`
	Header      string       `json:"header"`
	Options     []qwenOption `json:"options"`
	MultiSelect bool         `json:"multiSelect"`
}

// qwenOption is one choice of a qwenQuestion.
type qwenOption struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// qwenAsk is a permission request that carries qwen's questions: the
// questions and the options that submit and refuse them.
type qwenAsk struct {
	questions []qwenQuestion
	submit    acp.PermissionOptionId // the allow option: Submit
	reject    acp.PermissionOptionId // the reject option: Cancel ("" when none)
}

// qwenQuestions reads qwen's questions from a permission request: ok is
// false when it is not one (no qwen marker, or no option to submit with).
// A marked request whose questions cannot be read is an error: the caller
// asks it as the permission it also is.
func qwenQuestions(p acp.RequestPermissionRequest) (a *qwenAsk, ok bool, err error) {
	meta := p.ToolCall.Meta
	kind, _ := meta["qwenInteractionKind"].(string)
	tool, _ := meta["toolName"].(string)
	if kind != "user_question" && tool != "ask_user_question" {
		return nil, false, nil
	}
	a = &qwenAsk{}
	for _, o := range p.Options {
		switch {
		case a.submit == "" && (o.Kind == acp.PermissionOptionKindAllowOnce || o.Kind == acp.PermissionOptionKindAllowAlways):
			a.submit = o.OptionId
		case a.reject == "" && (o.Kind == acp.PermissionOptionKindRejectOnce || o.Kind == acp.PermissionOptionKindRejectAlways):
			a.reject = o.OptionId
		}
	}
	if a.submit == "" {
		return nil, false, nil
	}
	var raw any
	if in, _ := p.ToolCall.RawInput.(map[string]any); in != nil {
		raw = in["questions"]
	}
	if raw == nil {
		raw = meta["qwenQuestions"]
	}
	b, _ := json.Marshal(raw) // decoded JSON encodes again
	if err := json.Unmarshal(b, &a.questions); err != nil || len(a.questions) == 0 {
		return nil, true, fmt.Errorf("no list of questions in its rawInput")
	}
	if len(a.questions) > maxQwenQuestions {
		return nil, true, fmt.Errorf("%d questions, over the limit of %d", len(a.questions), maxQwenQuestions)
	}
	for i, q := range a.questions {
		if strings.TrimSpace(q.Question) == "" || len(q.Options) == 0 {
			return nil, true, fmt.Errorf("question %d has no text or no options", i+1)
		}
		if err := question.CheckMessage(q.Question); err != nil {
			return nil, true, fmt.Errorf("question %d: %w", i+1, err)
		}
	}
	return a, true, nil
}

// askQwen asks qwen's questions as a form when p carries them (ok), with
// the request's id and answer channel, and returns the response qwen
// reads, and what was chosen for the notes. A request that carries
// questions elicit cannot read (or that it may not show as a form:
// --no-form) is asked as the plain permission it also is (ok false),
// with a notice saying why.
func (c *Conn) askQwen(ctx context.Context, p acp.RequestPermissionRequest, id uint64, ch chan question.Outcome, from question.From) (resp any, rerr *acp.RequestError, choice string, ok bool) {
	a, marked, err := qwenQuestions(p)
	if !marked || c.cfg.NoForm {
		return nil, nil, "", false
	}
	var q *question.Question
	if err == nil {
		q, err = a.form(from)
	}
	if err != nil {
		c.emit(Notice{Text: "asked the agent's questions as a plain permission: " + sanitize.Line(err.Error()), Error: true})
		return nil, nil, "", false
	}
	q.ID = id
	if !c.emit(question.Asked{Q: q}) {
		c.withdraw(id)
		resp, choice = a.reply(question.Outcome{Action: question.Cancel})
		return resp, nil, choice, true
	}
	out, waited := c.wait(ctx, id, ch)
	if !waited {
		return nil, acp.NewRequestCancelled(nil), "withdrawn", true
	}
	resp, choice = a.reply(out.Reply(question.Form))
	return resp, nil, choice, true
}

// form is the question the request asks: a form with a field for each
// question (a select, or a multi-select) and its optional "Other" text.
func (a *qwenAsk) form(from question.From) (*question.Question, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	single := len(a.questions) == 1
	for i, q := range a.questions {
		if i > 0 {
			b.WriteByte(',')
		}
		field, other := qwenFields(q, i, single)
		fmt.Fprintf(&b, `"question_%d":%s,"question_%d_custom":%s`, i, field, i, other)
	}
	b.WriteString(`}}`)
	s, err := schema.ParseSchema(b.Bytes())
	if err != nil {
		return nil, err
	}
	msg := "Please answer the following questions."
	if single {
		msg = a.questions[0].Question
	}
	return &question.Question{Kind: question.Form, From: from, Message: sanitize.Text(msg), Schema: s, RawSchema: b.Bytes()}, nil
}

// qwenFields are the JSON schemas of question i's field and of its
// "Other" companion. One question's text is the form's message; with
// several, each field carries its own.
func qwenFields(q qwenQuestion, i int, single bool) (field, other []byte) {
	opts := make([]map[string]string, len(q.Options))
	for j, o := range q.Options {
		opts[j] = map[string]string{"const": o.Label, "title": o.Label}
		if o.Description != "" {
			opts[j]["description"] = o.Description
		}
	}
	f := map[string]any{"title": q.Header}
	if q.Header == "" {
		f["title"] = "Question " + strconv.Itoa(i+1)
	}
	if !single {
		f["description"] = q.Question
	}
	o := map[string]any{"type": "string", "title": "Other", "description": "Type your own answer instead (optional)."}
	if q.MultiSelect {
		f["type"], f["items"] = "array", map[string]any{"anyOf": opts}
		o["description"] = "Type your own answer to add to your selection above (optional)."
	} else {
		f["type"], f["oneOf"] = "string", opts
	}
	field, _ = json.Marshal(f)
	other, _ = json.Marshal(o)
	return field, other
}

// qwenReply is a permission response with the answers qwen reads beside
// the outcome.
type qwenReply struct {
	Outcome acp.RequestPermissionOutcome `json:"outcome"`
	Answers map[string]string            `json:"answers"`
}

// reply is the response to the request for the form's outcome: Submit
// with the answers on accept, the reject option on decline (cancelled
// when there is none), cancelled otherwise; and the option's name for
// the notes.
func (a *qwenAsk) reply(out question.Outcome) (resp any, choice string) {
	cancelled := acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Cancelled: &acp.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}}
	selected := func(id acp.PermissionOptionId) acp.RequestPermissionOutcome {
		return acp.RequestPermissionOutcome{Selected: &acp.RequestPermissionOutcomeSelected{Outcome: "selected", OptionId: id}}
	}
	switch out.Action {
	case question.Accept:
		return qwenReply{Outcome: selected(a.submit), Answers: a.answers(out.Content)}, "answered"
	case question.Decline:
		if a.reject != "" {
			return acp.RequestPermissionResponse{Outcome: selected(a.reject)}, "declined"
		}
	}
	return cancelled, "cancelled"
}

// answers are a form's content as qwen reads them: by question index, a
// multi-select's picks and its typed answer joined with ", ", a select's
// pick or else its typed answer; a question left unanswered is left out.
// A select answered both ways (an --answers file can) keeps both, joined
// the same way, so nothing typed is lost.
func (a *qwenAsk) answers(content map[string]any) map[string]string {
	out := map[string]string{}
	for i := range a.questions {
		var parts []string
		switch v := content[fmt.Sprintf("question_%d", i)].(type) {
		case string:
			if v != "" {
				parts = append(parts, v)
			}
		case []string:
			parts = append(parts, v...)
		case []any:
			for _, x := range v {
				if s, ok := x.(string); ok {
					parts = append(parts, s)
				}
			}
		}
		if s, _ := content[fmt.Sprintf("question_%d_custom", i)].(string); strings.TrimSpace(s) != "" {
			parts = append(parts, strings.TrimSpace(s))
		}
		if len(parts) > 0 {
			out[strconv.Itoa(i)] = strings.Join(parts, ", ")
		}
	}
	return out
}
