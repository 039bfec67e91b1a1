package formsync

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/schemamap"
	"github.com/elicit-dev/elicit/forms"
)

func shared(t *testing.T) *Sync {
	t.Helper()
	m, _, err := schemamap.FromQuestions([]ahp.Question{
		{ID: "name", Kind: ahp.KindText, Message: "Name", DefaultValue: []byte(`"John Doe"`)},
		{ID: "city", Kind: ahp.KindText, Message: "City"},
	})
	if err != nil {
		t.Fatal(err)
	}
	f := forms.NewModel(m.Schema, forms.Header{}, forms.Options{Grace: -1})
	f.Init()
	return New("r", m, f, nil)
}

func text(s string) *ahp.Answer {
	return &ahp.Answer{State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueText, Text: s}}
}

func typeIn(s *Sync, text string) {
	for _, r := range text {
		s.Form.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// A field the user did not change is not theirs to publish, the cursor in
// it or not, and a newer draft from another client replaces it.
func TestUntouchedFieldsAreNotPublished(t *testing.T) {
	s := shared(t)
	if got := s.Changes(true); len(got) != 0 {
		t.Fatalf("untouched defaults went out: %+v", got)
	}
	s.Remote("name", text("Server Draft"), "serve")
	if got := s.Form.Value("name"); got != "Server Draft" {
		t.Fatalf("the untouched Name under the cursor holds %q, not the newer draft", got)
	}
	if n := s.Notice("ctrl+t"); n != "" {
		t.Fatalf("nothing was typed, nothing is held: %q", n)
	}
	if got := s.Changes(true); len(got) != 0 {
		t.Fatalf("another client's draft went out as ours: %+v", got)
	}
}

// What the user typed in the field under the cursor is never replaced: the
// other draft is held, and theirs goes out.
func TestTypedFieldHeldAndPublished(t *testing.T) {
	s := shared(t)
	typeIn(s, " Jr")
	s.Remote("name", text("Bob"), "bob")
	if got := s.Form.Value("name"); got != "John Doe Jr" {
		t.Fatalf("the typed field became %q", got)
	}
	if s.Notice("ctrl+t") == "" {
		t.Fatal("no notice of the held draft")
	}
	got := s.Changes(true)
	if len(got) != 1 || got[0].QuestionID != "name" || got[0].Answer.Value.Text != "John Doe Jr" {
		t.Fatalf("changes %+v", got)
	}
	// A draft taken with ctrl+t is the other client's: it is not sent back as ours.
	s.Remote("name", text("Carl"), "carl")
	s.TakeTheirs()
	if got := s.Form.Value("name"); got != "Carl" {
		t.Fatalf("ctrl+t gave %q", got)
	}
	if got := s.Changes(true); len(got) != 0 {
		t.Fatalf("a draft taken from another client went out as ours: %+v", got)
	}
}
