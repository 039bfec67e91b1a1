package fullscreen

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/schemamap"
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
	sh = share.New(h, "terminal")
	t.Cleanup(func() { sh.Close(); srv.Close(); h.Close() })

	d := newDriver(t, Options{Agent: uitest.DemoConfig(t), Share: sh, ShareLine: "shared: elicit attach " + srv.URL()})
	d.connected()
	d.wantOnScreen("shared: elicit attach ws://127.0.0.1:")
	d.ask("/form defaults")
	f := d.frontForm()
	if f.sync == nil {
		t.Fatal("the form is not shared")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	a, err := ahp.Dial(ctx, ahp.ClientOptions{URL: srv.URL(), Token: "fullscreen-test-token", ClientID: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	text := func(s string) *ahp.Answer {
		return &ahp.Answer{State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueText, Text: s}}
	}
	// The cursor is in Name (it holds "John Doe"): alice's draft of it waits.
	a.Dispatch(ahp.InputAnswerChanged{RequestID: "q1", QuestionID: "name", Answer: text("Alice's name")})
	d.waitText(`alice changed "Name" while you edit it`)
	if got := f.form.Value("name"); got != "John Doe" {
		t.Fatalf("the field being edited became %q", got)
	}
	d.key("ctrl+t")
	if got := f.form.Value("name"); got != "Alice's name" {
		t.Fatalf("ctrl+t gave %q", got)
	}
	// Alice accepts with the full final answers.
	in := a.Inputs()
	for in.Open("q1") == nil {
		time.Sleep(5 * time.Millisecond)
		in = a.Inputs()
	}
	m, _, err := schemamap.FromQuestions(in.Open("q1").Request.Questions)
	if err != nil {
		t.Fatal(err)
	}
	content, err := m.Schema.FromAnswers(map[string]json.RawMessage{"name": []byte(`"Alice"`), "age": []byte("7")})
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
