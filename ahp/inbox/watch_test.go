package inbox

import (
	"fmt"
	"testing"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// The watcher follows sessions as they start and end, and their
// questions as they are asked and answered, with no polling.
func TestWatcherFollowsSessions(t *testing.T) {
	runtimeDir(t)
	h1, _ := publish(t, ahp.SessionMeta{Agent: "one"})
	if err := h1.Request(form("q1", "first")); err != nil {
		t.Fatal(err)
	}
	w, err := Watch(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	until := func(what string, ok func([]Item) bool) {
		t.Helper()
		testkit.Until(t, what, func() bool { return ok(w.Items()) }, w.Changed, func() string { return fmt.Sprintf("%+v %v", w.Items(), w.Problems()) })
	}
	if got := w.Items(); len(got) != 1 || got[0].Agent != "one" {
		t.Fatalf("at start: %+v", got)
	}
	h2 := ahp.NewHost(ahp.HostOptions{Meta: &ahp.SessionMeta{Agent: "two"}})
	p2, err := Publish(h2, ahp.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := h2.Request(form("q1", "second")); err != nil {
		t.Fatal(err)
	}
	until("the new session's question", func(its []Item) bool { return len(its) == 2 })
	first := w.Items()[0].ID
	h1.Withdraw("q1")
	until("the withdrawn question gone", func(its []Item) bool { return len(its) == 1 && its[0].Agent == "two" })
	if got := w.Answered(first); got != "" {
		t.Fatalf("a withdrawn question reads as answered %q", got)
	}
	p2.Close()
	h2.Close()
	until("the ended session gone", func(its []Item) bool { return len(its) == 0 })
	if err := h1.Request(form("q2", "again")); err != nil {
		t.Fatal(err)
	}
	until("a question asked later", func(its []Item) bool { return len(its) == 1 && its[0].Message == "again" })
	// Answered at its terminal: the watcher knows how.
	id := w.Items()[0].ID
	term, err := h1.Join("terminal")
	if err != nil {
		t.Fatal(err)
	}
	if err := term.Dispatch(ahp.InputCompleted{RequestID: "q2", Response: question.Decline}); err != nil {
		t.Fatal(err)
	}
	until("the answered question gone", func(its []Item) bool { return len(its) == 0 })
	if got := w.Answered(id); got != question.Decline {
		t.Fatalf("answered at its terminal: %q", got)
	}
}
