package question_test

import (
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
)

// A form question as a source parses it, and the outcome that goes back:
// the same value from the form's review to the wire, where it is the
// elicitation's result.
func Example() {
	s, err := schema.ParseSchema([]byte(`{"type":"object","properties":{"branch":{"type":"string"}},"required":["branch"]}`))
	if err != nil {
		panic(err)
	}
	q := &question.Question{ID: 1, Kind: question.Form, Message: "Which branch?", Schema: s}

	content, _ := q.Schema.FromAnswers(map[string]json.RawMessage{"branch": json.RawMessage(`"main"`)})
	out := question.Outcome{Action: question.Accept, Content: content}
	b, _ := json.Marshal(out)
	fmt.Println(q.Kind, string(b))

	// Nobody to ask: cancelled, with the reason for the notes (not the wire).
	out = question.Outcome{Action: question.Cancel, By: question.ByRule, Reason: "no person to ask"}
	b, _ = json.Marshal(out)
	fmt.Println(string(b), "by", out.By)
	// Output:
	// form {"action":"accept","content":{"branch":"main"}}
	// {"action":"cancel"} by non-interactive
}
