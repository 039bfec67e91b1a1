package acpconn

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
)

// qwenAskParams is the session/request_permission qwen-code 0.24.4 sends
// for its ask_user_question tool, as recorded with the model mock (its
// session id aside), with a second, multi-select question added.
const qwenAskParams = `{"sessionId":"s1","options":[{"optionId":"proceed_once","name":"Submit","kind":"allow_once"},{"optionId":"cancel","name":"Cancel","kind":"reject_once"}],"toolCall":{"toolCallId":"call_mock1","status":"pending","title":"Ask user 2 questions","content":[],"locations":[],"kind":"think","rawInput":{"questions":` + qwenAskQuestions + `},"_meta":{"toolName":"ask_user_question","qwenInteractionKind":"user_question","qwenQuestions":` + qwenAskQuestions + `}}}`

// qwenAskQuestions are the questions of qwenAskParams.
const qwenAskQuestions = `[{"header":"Colour","options":[{"description":"warm","label":"Red"},{"description":"cool","label":"Blue"}],"question":"Which colour?"},{"header":"Extras","multiSelect":true,"options":[{"description":"crunchy","label":"Nuts"},{"description":"sweet","label":"Jam"}],"question":"Which extras?"}]`

func init() {
	// qwen-ask asks qwen's questions as qwen-code does (its tool call
	// first, then the permission request) and says the response it got.
	scripts["qwen-ask"] = func(a *scripted) {
		p := a.prompt()
		a.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "call_mock1", "status": "pending", "title": "AskUserQuestion", "content": []any{}, "locations": []any{},
			"kind": "think", "rawInput": map[string]any{}, "_meta": map[string]any{"toolName": "ask_user_question", "provenance": "builtin", "phase": "preparing"}})
		resp := a.request("session/request_permission", json.RawMessage(qwenAskParams))
		b, _ := json.Marshal(resp["result"])
		a.say(string(b))
		a.endTurn(p, "end_turn")
	}
	// qwen-ask-bad marks its request as qwen's questions, but a question
	// has no options.
	scripts["qwen-ask-bad"] = func(a *scripted) {
		p := a.prompt()
		bad := strings.Replace(qwenAskParams, `"options":[{"description":"warm","label":"Red"},{"description":"cool","label":"Blue"}],`, "", 1)
		resp := a.request("session/request_permission", json.RawMessage(bad))
		b, _ := json.Marshal(resp["result"])
		a.say(string(b))
		a.endTurn(p, "end_turn")
	}
}

// qwen's questions arrive as a form: a select and a multi-select with
// their options' labels and descriptions, each with its "Other" text; the
// answers go back beside the Submit option, as qwen reads them.
func TestQwenQuestionsAskedAsForm(t *testing.T) {
	cases := []struct {
		name string
		out  question.Outcome
		want string
	}{
		{"accept", question.Outcome{Action: question.Accept, Content: map[string]any{"question_0": "Blue", "question_1": []string{"Nuts", "Jam"}, "question_1_custom": " honey "}},
			`{"answers":{"0":"Blue","1":"Nuts, Jam, honey"},"outcome":{"optionId":"proceed_once","outcome":"selected"}}`},
		{"other", question.Outcome{Action: question.Accept, Content: map[string]any{"question_0_custom": "green"}},
			`{"answers":{"0":"green"},"outcome":{"optionId":"proceed_once","outcome":"selected"}}`},
		{"nothing-picked", question.Outcome{Action: question.Accept},
			`{"answers":{},"outcome":{"optionId":"proceed_once","outcome":"selected"}}`},
		{"decline", question.Outcome{Action: question.Decline}, `{"outcome":{"optionId":"cancel","outcome":"selected"}}`},
		{"cancel", question.Outcome{Action: question.Cancel}, `{"outcome":{"outcome":"cancelled"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := start(t, "qwen-ask", Config{})
			c.StartPrompt("ask me")
			q, _ := asked(t, c, question.Form)
			if q.From.Session != "s1" || q.From.ToolCall != "call_mock1" || q.From.Tool != "Ask user 2 questions" {
				t.Errorf("from %+v", q.From)
			}
			if q.Message != "Please answer the following questions." {
				t.Errorf("message %q", q.Message)
			}
			checkQwenSchema(t, q.Schema)
			if !c.Answer(q, tc.out) {
				t.Fatal("the question no longer waits")
			}
			_, evs := until[TurnEnded](t, c)
			if got := agentText(evs); got != tc.want {
				t.Errorf("agent got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// checkQwenSchema checks the form built from qwenAskParams.
func checkQwenSchema(t *testing.T, s *schema.Schema) {
	t.Helper()
	var keys []string
	for _, f := range s.Fields {
		keys = append(keys, f.Key)
	}
	if strings.Join(keys, " ") != "question_0 question_0_custom question_1 question_1_custom" {
		t.Fatalf("fields %v", keys)
	}
	sel, multi := s.Fields[0], s.Fields[2]
	if sel.Kind != schema.KindSelect || sel.Title != "Colour" || sel.Description != "Which colour?" || sel.Required || sel.OtherKey != "question_0_custom" {
		t.Errorf("select %+v", sel)
	}
	if len(sel.Options) != 2 || sel.Options[0] != (schema.Option{Value: "Red", Title: "Red", Description: "warm"}) {
		t.Errorf("select options %+v", sel.Options)
	}
	if multi.Kind != schema.KindMultiSelect || multi.Title != "Extras" || len(multi.Options) != 2 || multi.Options[1].Description != "sweet" {
		t.Errorf("multi-select %+v", multi)
	}
	if o := s.Fields[3]; o.Kind != schema.KindString || o.Title != "Other" || o.Required {
		t.Errorf("other %+v", o)
	}
}

// A request marked as qwen's questions that elicit cannot read is asked
// as the permission it also is, and a notice says why; with --no-form, a
// marked request is a plain permission too.
func TestQwenQuestionsUnreadableArePermission(t *testing.T) {
	for _, tc := range []struct {
		script string
		cfg    Config
		notice string
	}{
		{"qwen-ask-bad", Config{}, "question 1 has no text or no options"},
		{"qwen-ask", Config{NoForm: true}, ""},
	} {
		t.Run(tc.script, func(t *testing.T) {
			c := start(t, tc.script, tc.cfg)
			c.StartPrompt("ask me")
			q, seen := asked(t, c, question.Permission)
			n, ok := findNotice(seen)
			if tc.notice != "" && (!ok || !strings.Contains(n.Text, tc.notice)) {
				t.Errorf("notice %+v", n)
			}
			if tc.notice == "" && ok {
				t.Errorf("notice %+v", n)
			}
			if len(q.Options) != 2 || q.Options[0].Name != "Submit" {
				t.Errorf("options %+v", q.Options)
			}
			c.Answer(q, pick("cancel"))
			_, evs := until[TurnEnded](t, c)
			if got := agentText(evs); got != `{"outcome":{"optionId":"cancel","outcome":"selected"}}` {
				t.Errorf("agent got %s", got)
			}
		})
	}
}
