package ahp

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// The test peer: a real host behind the real WebSocket server on a
// loopback port, and real clients dialing it.

const testToken = "test-token-0123456789"

func startHost(t *testing.T, o HostOptions) (*Host, string) {
	t.Helper()
	h := NewHost(o)
	s, err := Listen(ServerOptions{Addr: "127.0.0.1:0", Token: testToken}, h)
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	t.Cleanup(func() { s.Close(); h.Close() })
	return h, s.URL()
}

func dial(t *testing.T, url string, o ClientOptions) *Client {
	t.Helper()
	o.URL, o.Token = url, testToken
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, err := Dial(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// waitFor reads events until ok says the one wanted came; it fails only
// when none comes before testkit.Hang (a hang).
func waitFor(t *testing.T, c *Client, what string, ok func(Event) bool) Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	for {
		ev, more := c.Next(ctx)
		if !more {
			t.Fatalf("%s: no such event before the deadline", what)
		}
		if ok(ev) {
			return ev
		}
	}
}

func changedTo(pred func(Inputs) bool) func(Event) bool {
	return func(ev Event) bool {
		switch ev := ev.(type) {
		case Changed:
			return pred(ev.Inputs)
		case Reset:
			return pred(ev.Inputs)
		}
		return false
	}
}

func num(s string) *json.Number { n := json.Number(s); return &n }

func textQ(id string, required bool) Question {
	return Question{ID: id, Kind: KindText, Message: id + "?", Required: required}
}

func draft(text string) *Answer {
	return &Answer{State: Draft, Value: &Value{Kind: ValueText, Text: text}}
}

func submitted(text string) Answer {
	return Answer{State: Submitted, Value: &Value{Kind: ValueText, Text: text}}
}

func answerText(in Inputs, req, q string) string {
	e := in.Find(req)
	if e == nil {
		return ""
	}
	a, ok := e.Request.Answers[q]
	if !ok || a.Value == nil {
		return ""
	}
	return a.Value.Text
}

func TestTwoClientsDraftDifferentQuestions(t *testing.T) {
	for _, v := range []string{CurrentVersion, LegacyVersion} {
		t.Run(v, func(t *testing.T) {
			h, url := startHost(t, HostOptions{Title: "demo"})
			a := dial(t, url, ClientOptions{Versions: []string{v}})
			b := dial(t, url, ClientOptions{Versions: []string{v}})
			if err := h.Request(Request{ID: "r1", Message: "Who?", Questions: []Question{textQ("name", true), textQ("city", false)}}); err != nil {
				t.Fatal(err)
			}
			for _, c := range []*Client{a, b} {
				waitFor(t, c, "the request", changedTo(func(in Inputs) bool { return in.Open("r1") != nil }))
			}
			a.Dispatch(InputAnswerChanged{RequestID: "r1", QuestionID: "name", Answer: draft("Ada")})
			b.Dispatch(InputAnswerChanged{RequestID: "r1", QuestionID: "city", Answer: draft("Paris")})
			both := func(in Inputs) bool {
				return answerText(in, "r1", "name") == "Ada" && answerText(in, "r1", "city") == "Paris"
			}
			for _, c := range []*Client{a, b} {
				waitFor(t, c, "the merged answers", changedTo(both))
			}
			if !both(h.Inputs()) {
				t.Fatalf("host state %+v", h.Inputs())
			}
		})
	}
}

func TestFiftyClientsSeeTheOutcome(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	var cs []*Client
	for i := 0; i < 50; i++ {
		cs = append(cs, dial(t, url, ClientOptions{ClientID: fmt.Sprintf("c%d", i)}))
	}
	h.Request(Request{ID: "r1", Questions: []Question{textQ("name", true)}})
	for _, c := range cs {
		waitFor(t, c, "the request", changedTo(func(in Inputs) bool { return in.Open("r1") != nil }))
	}
	cs[7].Dispatch(InputCompleted{RequestID: "r1", Response: question.Accept, Answers: map[string]Answer{"name": submitted("Ada")}})
	for i, c := range cs {
		ev := waitFor(t, c, fmt.Sprintf("client %d sees the outcome", i), func(ev Event) bool {
			ch, ok := ev.(Changed)
			_, done := ch.Action.(InputCompleted)
			return ok && done
		})
		if ch := ev.(Changed); ch.Origin == nil || ch.Origin.ClientID != "c7" || ch.Mine != (i == 7) {
			t.Fatalf("client %d: origin %+v mine %v", i, ch.Origin, ch.Mine)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	done, ok := h.NextCompletion(ctx)
	if !ok || done.Response != question.Accept || done.Request.Answers["name"].Value.Text != "Ada" || done.By.ClientID != "c7" {
		t.Fatalf("completion %+v", done)
	}
}
