package ahp

import (
	"reflect"
	"testing"

	"github.com/elicit-dev/elicit/question"
)

// Table tests of the reducer, from the wire notes: drafts merge, no answer
// clears, skip, completion merges its answers over the synced ones,
// actions on unknown or completed requests change nothing, a replacement
// keeps drafts unless it carries answers, and a turn's end drops requests.
func TestReducer(t *testing.T) {
	two := Request{ID: "r", Questions: []Question{textQ("a", true), textQ("b", false)}}
	open := func(answers map[string]Answer) Inputs {
		r := two.Clone()
		r.Answers = answers
		return Inputs{Turn: "t", Entries: []Entry{{Request: r}}}
	}
	done := func(answers map[string]Answer, resp question.Action) Inputs {
		in := open(answers)
		in.Entries[0].Response = resp
		return in
	}
	d := func(s string) Answer { return *draft(s) }
	skip := Answer{State: Skipped}
	tests := []struct {
		name    string
		start   Inputs
		action  Action
		want    Inputs
		changed bool
	}{
		{"request appends", Inputs{Turn: "t"}, InputRequested{Request: two}, open(nil), true},
		{"draft merges", open(map[string]Answer{"a": d("x")}), InputAnswerChanged{RequestID: "r", QuestionID: "b", Answer: draft("y")},
			open(map[string]Answer{"a": d("x"), "b": d("y")}), true},
		{"last draft wins", open(map[string]Answer{"a": d("x")}), InputAnswerChanged{RequestID: "r", QuestionID: "a", Answer: draft("z")},
			open(map[string]Answer{"a": d("z")}), true},
		{"no answer clears", open(map[string]Answer{"a": d("x"), "b": d("y")}), InputAnswerChanged{RequestID: "r", QuestionID: "a"},
			open(map[string]Answer{"b": d("y")}), true},
		{"clearing the last leaves none", open(map[string]Answer{"a": d("x")}), InputAnswerChanged{RequestID: "r", QuestionID: "a"}, open(nil), true},
		{"clearing nothing is no change", open(nil), InputAnswerChanged{RequestID: "r", QuestionID: "a"}, open(nil), false},
		{"skip", open(nil), InputAnswerChanged{RequestID: "r", QuestionID: "b", Answer: &skip}, open(map[string]Answer{"b": skip}), true},
		{"completion merges over synced", open(map[string]Answer{"a": d("x"), "b": d("y")}),
			InputCompleted{RequestID: "r", Response: question.Accept, Answers: map[string]Answer{"a": submitted("X")}},
			done(map[string]Answer{"a": submitted("X"), "b": d("y")}, question.Accept), true},
		{"decline keeps drafts", open(map[string]Answer{"a": d("x")}), InputCompleted{RequestID: "r", Response: question.Decline},
			done(map[string]Answer{"a": d("x")}, question.Decline), true},
		{"unknown request: draft", open(nil), InputAnswerChanged{RequestID: "nope", QuestionID: "a", Answer: draft("x")}, open(nil), false},
		{"unknown request: completion", open(nil), InputCompleted{RequestID: "nope", Response: question.Accept}, open(nil), false},
		{"completed request: draft", done(nil, question.Accept), InputAnswerChanged{RequestID: "r", QuestionID: "a", Answer: draft("x")}, done(nil, question.Accept), false},
		{"completed request: second completion", done(nil, question.Accept), InputCompleted{RequestID: "r", Response: question.Cancel}, done(nil, question.Accept), false},
		{"unknown response", open(nil), InputCompleted{RequestID: "r", Response: "maybe"}, open(nil), false},
		{"replacement keeps drafts", open(map[string]Answer{"a": d("x")}), InputRequested{Request: Request{ID: "r", Message: "new", Questions: two.Questions}},
			func() Inputs {
				in := open(map[string]Answer{"a": d("x")})
				in.Entries[0].Request.Message = "new"
				return in
			}(), true},
		{"replacement with fewer questions drops their drafts", open(map[string]Answer{"a": d("x"), "b": d("y")}),
			InputRequested{Request: Request{ID: "r", Questions: []Question{textQ("b", false)}}},
			Inputs{Turn: "t", Entries: []Entry{{Request: Request{ID: "r", Questions: []Question{textQ("b", false)}, Answers: map[string]Answer{"b": d("y")}}}}}, true},
		{"replacement with answers takes them", open(map[string]Answer{"a": d("x")}),
			InputRequested{Request: Request{ID: "r", Questions: two.Questions, Answers: map[string]Answer{"b": d("q")}}},
			open(map[string]Answer{"b": d("q")}), true},
		{"a completed id asked again is a new request", done(nil, question.Decline), InputRequested{Request: two},
			Inputs{Turn: "t", Entries: []Entry{{Request: two, Response: question.Decline}, {Request: two}}}, true},
		{"turn end drops everything", open(map[string]Answer{"a": d("x")}), TurnEnded{TurnID: "t", State: TurnCancelled}, Inputs{}, true},
		{"turn start", Inputs{}, TurnStarted{TurnID: "t2"}, Inputs{Turn: "t2"}, true},
		{"aggregate actions are not the reducer's", open(nil), InputNeededRemoved{ID: "r"}, open(nil), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.start.Clone()
			changed := got.Apply(tt.action)
			if changed != tt.changed {
				t.Errorf("changed = %v, want %v", changed, tt.changed)
			}
			if !reflect.DeepEqual(norm(got), norm(tt.want)) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// norm makes nil and empty slices alike for comparison.
func norm(in Inputs) Inputs {
	in = in.Clone()
	if len(in.Entries) == 0 {
		in.Entries = nil
	}
	return in
}

// The reducer never shares memory with the action it applied.
func TestReducerCopies(t *testing.T) {
	var in Inputs
	r := Request{ID: "r", Questions: []Question{textQ("a", false)}}
	in.Apply(InputRequested{Request: r})
	a := draft("x")
	in.Apply(InputAnswerChanged{RequestID: "r", QuestionID: "a", Answer: a})
	a.Value.Text = "changed"
	r.Questions[0].ID = "changed"
	if answerText(in, "r", "a") != "x" || in.Entries[0].Request.Questions[0].ID != "a" {
		t.Fatalf("state shares memory with actions: %+v", in)
	}
}
