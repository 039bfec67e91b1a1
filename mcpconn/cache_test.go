package mcpconn

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/hostile"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
)

// schemaDump is a parsed schema as JSON, to compare two parses.
func schemaDump(t *testing.T, s *schema.Schema) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRepeatedFormsAnswerAsBefore: a server that asks one form again and
// again (the parse cache's case), then the same message with a changed
// schema, the first again, and a hostile server's form twice. Every
// question is what a fresh parse of the bytes the server sent makes of it,
// in the server's order; an answer that fits the first schema but not the
// changed one is cancelled on the changed one; the hostile form's text is
// still sanitized where it is shown; and each distinct schema was parsed
// once.
func TestRepeatedFormsAnswerAsBefore(t *testing.T) {
	c := connect(t, Config{})
	done := call(c, "sequence")
	wantKeys := []string{"zeta,alpha,mid", "zeta,alpha,mid", "zeta,alpha,mid", "alpha,zeta", "zeta,alpha,mid", "e,m,s", "e,m,s"}
	var first *schema.Schema
	for i, want := range wantKeys {
		q := nextQuestion(t, c)
		if got := keys(q); got != want {
			t.Fatalf("form %d: fields %s, want %s", i+1, got, want)
		}
		fresh, err := schema.ParseSchema(q.RawSchema)
		if err != nil {
			t.Fatalf("form %d: %v", i+1, err)
		}
		if got, want := schemaDump(t, q.Schema), schemaDump(t, fresh); got != want {
			t.Fatalf("form %d: the cached schema\n%s\nis not a fresh parse's\n%s", i+1, got, want)
		}
		switch i {
		case 0:
			first = q.Schema
		case 1, 2, 4:
			if q.Schema != first {
				t.Errorf("form %d: the same schema was parsed again", i+1)
			}
		}
		content := map[string]any{"zeta": "z", "alpha": json.Number("3")}
		if strings.HasPrefix(want, "e,") {
			content = map[string]any{"e": "a"}
			if q.Message != sanitize.Text(hostile.Payload("form message")) {
				t.Errorf("form %d: message %q", i+1, q.Message)
			}
			for _, f := range q.Schema.Fields {
				if l := f.Label(); l != sanitize.Line(l) {
					t.Errorf("form %d: label %q is not sanitized", i+1, l)
				}
			}
		}
		c.Answer(q, question.Outcome{Action: question.Accept, Content: content})
	}
	// alpha 3 fits the first schema (minimum 1), not the changed one
	// (minimum 5): that one is cancelled, and the user told.
	if got := textOf(t, <-done); got != "accept accept accept cancel accept accept accept" {
		t.Errorf("the server heard %q", got)
	}
	if n := c.forms.Len(); n != 3 {
		t.Errorf("%d schemas parsed and kept, want 3 (the first, the changed one, the hostile one)", n)
	}
	if n := c.obs.keys.entries.Len(); n != 3 {
		t.Errorf("%d schemas keyed, want 3", n)
	}
}
