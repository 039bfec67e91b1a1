package fullscreen

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/schemamap"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/share"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// The serving terminal is one client among others: a remote draft fills
// its form without taking the field the user is in (a notice and ctrl+t
// instead), and a remote accept closes the form here and reaches the agent.
func TestSharedFormAnsweredElsewhere(t *testing.T) {
	var sh *share.Share
	h := ahp.NewHost(ahp.HostOptions{Check: func(r ahp.Request) error { return sh.Check(r) }})
	srv, err := ahp.Listen(ahp.ServerOptions{Token: "fullscreen-test-token"}, h)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	if sh, err = share.New(h, "terminal", share.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sh.Close(); srv.Close(); h.Close() })

	d := newDriver(t, Options{Agent: uitest.DemoConfig(t), Share: sh, ShareLine: "shared: elicit attach " + srv.URL()})
	d.connected()
	d.wantOnScreen("shared: elicit attach ws://127.0.0.1:")
	d.ask("/form defaults")
	f := d.frontForm()
	if f.sync == nil {
		t.Fatal("the form is not shared")
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	a, err := ahp.Dial(ctx, ahp.ClientOptions{URL: srv.URL(), Token: "fullscreen-test-token", ClientID: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	text := func(s string) *ahp.Answer {
		return &ahp.Answer{State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueText, Text: s}}
	}
	// The cursor is in Name, where the user typed: alice's draft of it
	// waits (an untouched default would simply take it).
	d.typeText(" Jr")
	a.Dispatch(ahp.InputAnswerChanged{RequestID: "q1", QuestionID: "name", Answer: text("Alice's name")})
	d.waitText(`alice changed "Name" while you edit it`)
	if got := f.form.Value("name"); got != "John Doe Jr" {
		t.Fatalf("the field being edited became %q", got)
	}
	d.key("ctrl+t")
	if got := f.form.Value("name"); got != "Alice's name" {
		t.Fatalf("ctrl+t gave %q", got)
	}
	// Alice accepts with the full final answers, once her view holds the
	// request (each change to it is an event).
	in := a.Inputs()
	for in.Open("q1") == nil {
		if _, ok := a.Next(ctx); !ok {
			t.Fatalf("alice never saw the request (it hangs); screen:\n%s", d.screen())
		}
		in = a.Inputs()
	}
	m, _, err := schemamap.FromQuestions(in.Open("q1").Request.Questions)
	if err != nil {
		t.Fatal(err)
	}
	// (A select's default comes as a draft the request starts with, not
	// in the questions: alice's form would hold it.)
	status := in.Open("q1").Request.Answers["status"].Value.Selected
	content, err := m.Schema.FromAnswers(map[string]json.RawMessage{"name": []byte(`"Alice"`), "age": []byte("7"), "status": []byte(`"` + status + `"`)})
	if err != nil {
		t.Fatal(err)
	}
	a.Dispatch(ahp.InputCompleted{RequestID: "q1", Response: question.Accept, Answers: m.Answers(content, ahp.Submitted)})
	d.waitText("answered elsewhere: accept (by alice)")
	d.idle()
	d.waitText(`"name": "Alice"`)
	if !strings.Contains(d.screen(), `"age": 7`) {
		t.Fatalf("the agent did not get alice's answer:\n%s", d.screen())
	}
}
