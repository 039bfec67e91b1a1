package serve

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/schemamap"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/headless"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// serve -p with the real demo agent: its form waits for an attached
// client, a draft from one client reaches the other, the answer accepted
// by the second reaches the agent, and the first sees it answered.
func TestServePromptAnsweredByAttachedClient(t *testing.T) {
	sv, err := Start(Options{Title: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	if fi, err := os.Stat(sv.TokenFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file %q: %v %v", sv.TokenFile, fi, err)
	}
	if b, _ := os.ReadFile(sv.TokenFile); strings.TrimSpace(string(b)) != sv.Token {
		t.Fatalf("the token file holds %q", b)
	}
	var out, errs testkit.Buffer
	done := make(chan int, 1)
	go func() {
		done <- headless.Run(headless.Options{Agent: uitest.DemoConfig(t), Prompt: "/form", Timeout: testkit.Hang,
			Stdout: &out, Stderr: &errs, Remote: sv.Remote()})
	}()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	dial := func(id string) *ahp.Client {
		c, err := ahp.Dial(ctx, ahp.ClientOptions{URL: sv.Server.URL(), Token: sv.Token, ClientID: id})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	a, b := dial("alice"), dial("bob")
	wait := func(c *ahp.Client, what string, ok func(ahp.Event) bool) ahp.Event {
		t.Helper()
		for {
			ev, more := c.Next(ctx)
			if !more {
				t.Fatalf("no %s (the client closed, or it hangs); stderr:\n%s", what, errs.String())
			}
			if ok(ev) {
				return ev
			}
		}
	}
	inputs := func(ev ahp.Event) ahp.Inputs {
		switch ev := ev.(type) {
		case ahp.Changed:
			return ev.Inputs
		case ahp.Reset:
			return ev.Inputs
		}
		return ahp.Inputs{}
	}
	wait(a, "the first form", func(ev ahp.Event) bool { in := inputs(ev); return in.Open("q1") != nil })
	wait(b, "the first form", func(ev ahp.Event) bool { in := inputs(ev); return in.Open("q1") != nil })
	a.Dispatch(ahp.InputAnswerChanged{RequestID: "q1", QuestionID: "name", Answer: &ahp.Answer{State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueText, Text: "Grace"}}})
	wait(b, "alice's draft", func(ev ahp.Event) bool {
		in := inputs(ev)
		e := in.Open("q1")
		return e != nil && e.Request.Answers["name"].Value != nil && e.Request.Answers["name"].Value.Text == "Grace"
	})
	// Bob accepts with the full final answers: his name, the defaults
	// (a select's is a draft the request starts with), submitted.
	in := b.Inputs()
	req := in.Open("q1").Request
	m, _, err := schemamap.FromQuestions(req.Questions)
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]json.RawMessage{}
	for id, a := range req.Answers {
		for k, v := range m.Values(id, &a) {
			if v != nil {
				values[k], _ = json.Marshal(v)
			}
		}
	}
	values["name"] = []byte(`"Grace Hopper"`)
	content, err := m.Schema.FromAnswers(values)
	if err != nil {
		t.Fatal(err)
	}
	final := m.Answers(content, ahp.Submitted)
	b.Dispatch(ahp.InputCompleted{RequestID: "q1", Response: question.Accept, Answers: final})
	ev := wait(a, "bob's answer", func(ev ahp.Event) bool {
		ch, ok := ev.(ahp.Changed)
		c, done := ch.Action.(ahp.InputCompleted)
		return ok && done && c.RequestID == "q1"
	}).(ahp.Changed)
	if ev.Origin.ClientID != "bob" {
		t.Fatalf("origin %+v", ev.Origin)
	}
	// Decline the rest so the turn ends.
	for i := 2; i <= 6; i++ {
		id := "q" + string(rune('0'+i))
		wait(b, "form "+id, func(ev ahp.Event) bool { in := inputs(ev); return in.Open(id) != nil })
		b.Dispatch(ahp.InputCompleted{RequestID: id, Response: question.Decline})
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, errs.String())
		}
	case <-ctx.Done():
		t.Fatalf("the turn did not end (it hangs); stderr:\n%s", errs.String())
	}
	if !strings.Contains(out.String(), `"name": "Grace Hopper"`) {
		t.Fatalf("the agent did not get bob's answer:\n%s", out.String())
	}
	if !strings.Contains(errs.String(), "(remote client)") {
		t.Fatalf("stderr:\n%s", errs.String())
	}
}
