package ahp

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

func rejected(t *testing.T, c *Client, want string) Rejected {
	t.Helper()
	ev := waitFor(t, c, "a rejection", func(ev Event) bool { _, ok := ev.(Rejected); return ok })
	r := ev.(Rejected)
	if !strings.Contains(r.Reason, want) {
		t.Fatalf("rejected with %q, want it to say %q", r.Reason, want)
	}
	return r
}

// queuedOnly is a context that has ended: NextCompletion with it returns
// only a completion already queued.
func queuedOnly() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func completedEvent(ev Event) bool {
	ch, ok := ev.(Changed)
	_, done := ch.Action.(InputCompleted)
	return ok && done
}

func ask(t *testing.T, h *Host, r Request, cs ...*Client) {
	t.Helper()
	if err := h.Request(r); err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		waitFor(t, c, "request "+r.ID, changedTo(func(in Inputs) bool { return in.Open(r.ID) != nil }))
	}
}

func TestSameQuestionLastWriteWins(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	a, b := dial(t, url, ClientOptions{}), dial(t, url, ClientOptions{})
	ask(t, h, Request{ID: "r", Questions: []Question{textQ("name", true)}}, a, b)
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "name", Answer: draft("from a")})
	waitFor(t, b, "a's draft", changedTo(func(in Inputs) bool { return answerText(in, "r", "name") == "from a" }))
	b.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "name", Answer: draft("from b")})
	ev := waitFor(t, a, "b's draft", changedTo(func(in Inputs) bool { return answerText(in, "r", "name") == "from b" }))
	if ch := ev.(Changed); ch.Mine || ch.Origin == nil || ch.Origin.ClientID != b.ID() {
		t.Fatalf("the draft does not name b as its origin: %+v", ch.Origin)
	}
	if got := answerText(h.Inputs(), "r", "name"); got != "from b" {
		t.Fatalf("host keeps %q", got)
	}
}

func TestTwoCompletionsRace(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	a, b := dial(t, url, ClientOptions{}), dial(t, url, ClientOptions{})
	ask(t, h, Request{ID: "r", Questions: []Question{textQ("name", false)}}, a, b)
	a.Dispatch(InputCompleted{RequestID: "r", Response: question.Decline})
	b.Dispatch(InputCompleted{RequestID: "r", Response: question.Accept})
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	won, _ := h.NextCompletion(ctx)
	loser := a
	if won.By.ClientID == a.ID() {
		loser = b
	}
	rejected(t, loser, "already completed")
	// One completion, and no more traffic: the loser does not retry. The
	// host handled both before it answered the loser, so a second
	// completion would be queued by now.
	if extra, ok := h.NextCompletion(queuedOnly()); ok {
		t.Fatalf("a second completion: %+v", extra)
	}
	if in := h.Inputs(); in.Find("r") == nil || in.Find("r").Response != won.Response {
		t.Fatalf("state %+v, winner %s", in, won.Response)
	}
}

func TestCompletionWhileOtherHasUnsavedDraft(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	a, b := dial(t, url, ClientOptions{}), dial(t, url, ClientOptions{})
	ask(t, h, Request{ID: "r", Questions: []Question{textQ("name", false)}}, a, b)
	b.Dispatch(InputCompleted{RequestID: "r", Response: question.Accept, Answers: map[string]Answer{"name": submitted("B")}})
	ev := waitFor(t, a, "b's completion", completedEvent).(Changed)
	if ev.Mine || ev.Origin.ClientID != b.ID() {
		t.Fatalf("completion origin %+v", ev.Origin)
	}
	// A's draft, typed before it heard, arrives late: refused, not applied.
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "name", Answer: draft("A's unsaved text")})
	r := rejected(t, a, "already completed")
	if _, ok := r.Action.(InputAnswerChanged); !ok {
		t.Fatalf("the rejection names %T", r.Action)
	}
	if got := answerText(h.Inputs(), "r", "name"); got != "B" {
		t.Fatalf("host answer %q", got)
	}
}

func TestRequiredSkippedRefusesAccept(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	a := dial(t, url, ClientOptions{})
	ask(t, h, Request{ID: "r", Questions: []Question{textQ("name", true)}}, a)
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "name", Answer: &Answer{State: Skipped}})
	waitFor(t, a, "the skip", changedTo(func(in Inputs) bool { return in.Open("r").Request.Answers["name"].State == Skipped }))
	a.Dispatch(InputCompleted{RequestID: "r", Response: question.Accept})
	rejected(t, a, "was skipped")
	if in := h.Inputs(); in.Open("r") == nil {
		t.Fatal("the request closed")
	}
	a.Dispatch(InputCompleted{RequestID: "r", Response: question.Decline}) // decline needs nothing
	waitFor(t, a, "the decline", completedEvent)
}

func TestDraftsOnlyThenAccept(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	a := dial(t, url, ClientOptions{})
	ask(t, h, Request{ID: "r", Questions: []Question{textQ("name", true)}}, a)
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "name", Answer: draft("Ada")})
	a.Dispatch(InputCompleted{RequestID: "r", Response: question.Accept})
	rejected(t, a, "only a draft")
	// The client promotes its drafts: the full final answers, submitted.
	a.Dispatch(InputCompleted{RequestID: "r", Response: question.Accept, Answers: map[string]Answer{"name": submitted("Ada")}})
	waitFor(t, a, "the accept", completedEvent)
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, _ := h.NextCompletion(ctx)
	if a := c.Request.Answers["name"]; a.State != Submitted || a.Value.Text != "Ada" {
		t.Fatalf("final answer %+v", a)
	}
}

func TestWrongKindRejectedWithReason(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	a := dial(t, url, ClientOptions{})
	qs := []Question{textQ("name", false), {ID: "n", Kind: KindInteger, Message: "n", Min: num("1"), Max: num("10")},
		{ID: "pick", Kind: KindSingleSelect, Message: "pick", Options: []Option{{ID: "x", Label: "X"}}}}
	ask(t, h, Request{ID: "r", Questions: qs}, a)
	for _, tc := range []struct {
		q      string
		answer Answer
		reason string
	}{
		{"name", Answer{State: Draft, Value: &Value{Kind: ValueNumber, Number: "3"}}, `takes a "text" value`},
		{"n", Answer{State: Submitted, Value: &Value{Kind: ValueNumber, Number: "2.5"}}, "not a whole number"},
		{"n", Answer{State: Submitted, Value: &Value{Kind: ValueNumber, Number: "11"}}, "at most 10"},
		{"pick", Answer{State: Draft, Value: &Value{Kind: ValueSelected, Selected: "nope"}}, "not an option"},
		{"name", Answer{State: Draft}, "needs a value"},
		{"name", Answer{State: "final", Value: &Value{Kind: ValueText}}, "unknown answer state"},
		{"ghost", *draft("x"), "no question"},
	} {
		a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: tc.q, Answer: &tc.answer})
		rejected(t, a, tc.reason)
	}
	if in := h.Inputs(); len(in.Open("r").Request.Answers) != 0 {
		t.Fatalf("a rejected answer was kept: %+v", in.Open("r").Request.Answers)
	}
}

func TestFreeform(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	a := dial(t, url, ClientOptions{})
	opts := []Option{{ID: "red", Label: "Red"}, {ID: "blue", Label: "Blue"}}
	qs := []Question{
		{ID: "one", Kind: KindSingleSelect, Message: "one", Options: opts, AllowFreeformInput: true, Required: true},
		{ID: "many", Kind: KindMultiSelect, Message: "many", Options: opts, AllowFreeformInput: true, Max: num("2")},
		{ID: "closed", Kind: KindSingleSelect, Message: "closed", Options: opts},
	}
	ask(t, h, Request{ID: "r", Questions: qs}, a)
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "closed", Answer: &Answer{State: Draft, Value: &Value{Kind: ValueSelected, Freeform: []string{"green"}}}})
	rejected(t, a, "takes no free-form text")
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "many", Answer: &Answer{State: Submitted, Value: &Value{Kind: ValueSelectedMany, Many: []string{"red", "blue"}, Freeform: []string{"green"}}}})
	rejected(t, a, "at most 2")
	final := map[string]Answer{
		"one":  {State: Submitted, Value: &Value{Kind: ValueSelected, Freeform: []string{"teal"}}},
		"many": {State: Submitted, Value: &Value{Kind: ValueSelectedMany, Many: []string{"red"}, Freeform: []string{"green"}}},
	}
	a.Dispatch(InputCompleted{RequestID: "r", Response: question.Accept, Answers: final})
	waitFor(t, a, "the accept", completedEvent)
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, _ := h.NextCompletion(ctx)
	if got := c.Request.Answers["one"].Value.Freeform; len(got) != 1 || got[0] != "teal" {
		t.Fatalf("free-form single: %+v", c.Request.Answers["one"])
	}
	if got := c.Request.Answers["many"].Value; got.Many[0] != "red" || got.Freeform[0] != "green" {
		t.Fatalf("free-form multi: %+v", got)
	}
}

func TestReplacedWithFewerQuestions(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	a := dial(t, url, ClientOptions{})
	ask(t, h, Request{ID: "r", Questions: []Question{textQ("a", false), textQ("b", false)}}, a)
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "a", Answer: draft("x")})
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "b", Answer: draft("y")})
	waitFor(t, a, "drafts", changedTo(func(in Inputs) bool { return answerText(in, "r", "b") == "y" }))
	h.Request(Request{ID: "r", Questions: []Question{textQ("b", false)}})
	waitFor(t, a, "the replacement", changedTo(func(in Inputs) bool {
		e := in.Open("r")
		return e != nil && len(e.Request.Questions) == 1 && answerText(in, "r", "b") == "y" && answerText(in, "r", "a") == ""
	}))
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "a", Answer: draft("late")})
	rejected(t, a, "no question")
}

func TestURLOnlyRequest(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	a := dial(t, url, ClientOptions{Versions: []string{LegacyVersion}})
	ask(t, h, Request{ID: "u", Message: "Sign in", URL: "https://example.com/login"}, a)
	in := a.Inputs()
	if e := in.Open("u"); e.Request.URL != "https://example.com/login" || len(e.Request.Questions) != 0 {
		t.Fatalf("client sees %+v", e.Request)
	}
	a.Dispatch(InputCompleted{RequestID: "u", Response: question.Accept})
	waitFor(t, a, "the accept", completedEvent)
}

func TestTurnEndsWithRequestOpen(t *testing.T) {
	for _, v := range []string{CurrentVersion, LegacyVersion} {
		t.Run(v, func(t *testing.T) {
			h, url := startHost(t, HostOptions{})
			a := dial(t, url, ClientOptions{Versions: []string{v}})
			ask(t, h, Request{ID: "r", Questions: []Question{textQ("a", true)}}, a)
			h.EndTurn(TurnCancelled)
			ev := waitFor(t, a, "the turn's end", func(ev Event) bool {
				ch, ok := ev.(Changed)
				_, end := ch.Action.(TurnEnded)
				return ok && end
			}).(Changed)
			if ev.Action.(TurnEnded).State != TurnCancelled || len(ev.Inputs.OpenRequests()) != 0 {
				t.Fatalf("after the turn: %+v", ev)
			}
			a.Dispatch(InputCompleted{RequestID: "r", Response: question.Accept})
			rejected(t, a, "no open request")
		})
	}
}

func TestDroppedConnectionMidDraft(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	a, b := dial(t, url, ClientOptions{}), dial(t, url, ClientOptions{})
	ask(t, h, Request{ID: "r", Questions: []Question{textQ("a", false), textQ("b", false)}}, a, b)
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "a", Answer: draft("before")})
	waitFor(t, b, "a's first draft", changedTo(func(in Inputs) bool { return answerText(in, "r", "a") == "before" }))
	h.dropClient(a.ID())
	waitFor(t, a, "the drop", func(ev Event) bool { c, ok := ev.(Connection); return ok && !c.Up })
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "a", Answer: draft("typed while down")})
	b.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "b", Answer: draft("from b meanwhile")})
	waitFor(t, a, "back, with what it missed and its own draft", changedTo(func(in Inputs) bool {
		return answerText(in, "r", "b") == "from b meanwhile" && answerText(in, "r", "a") == "typed while down"
	}))
	waitFor(t, b, "a's draft after the reconnect", changedTo(func(in Inputs) bool { return answerText(in, "r", "a") == "typed while down" }))
	if got := answerText(h.Inputs(), "r", "a"); got != "typed while down" {
		t.Fatalf("host has %q", got)
	}
}

// dropClient ends the connection of a client, as a network failure would.
func (h *Host) dropClient(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.conns {
		if c.clientID == id {
			c.close()
		}
	}
}

func TestVersionNegotiation(t *testing.T) {
	_, url := startHost(t, HostOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	_, err := Dial(ctx, ClientOptions{URL: url, Token: testToken, Versions: []string{"9.0.0"}})
	var re *RPCError
	if !errors.As(err, &re) || re.Code != CodeUnsupportedVersion {
		t.Fatalf("err = %v, want -32005", err)
	}
	c := dial(t, url, ClientOptions{Versions: []string{"2.0.0", LegacyVersion, CurrentVersion}})
	if c.Version() != LegacyVersion {
		t.Fatalf("negotiated %s: the client's order is the preference", c.Version())
	}
}

func TestTokenAndListenPolicy(t *testing.T) {
	_, url := startHost(t, HostOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	for _, tok := range []string{"", "wrong-token"} {
		if _, err := Dial(ctx, ClientOptions{URL: url, Token: tok}); err == nil || !strings.Contains(err.Error(), "401") {
			t.Fatalf("token %q: err = %v", tok, err)
		}
	}
	h := NewHost(HostOptions{})
	if _, err := Listen(ServerOptions{Addr: "127.0.0.1:0"}, h); !errors.Is(err, ErrNoToken) {
		t.Fatalf("no token: %v", err)
	}
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		if _, err := Listen(ServerOptions{Addr: addr, Token: testToken}, h); !errors.Is(err, ErrRemoteWithoutTLS) {
			t.Fatalf("%s: %v", addr, err)
		}
	}
	s, err := Listen(ServerOptions{Addr: "127.0.0.1:0", Insecure: true}, h)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

func TestCaps(t *testing.T) {
	h, url := startHost(t, HostOptions{MaxClients: 2, MaxRequests: 1, MaxQuestions: 2, Limits: Limits{MaxText: 10}})
	a := dial(t, url, ClientOptions{})
	dial(t, url, ClientOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	if _, err := Dial(ctx, ClientOptions{URL: url, Token: testToken}); err == nil {
		t.Fatal("a third client was let in")
	}
	if err := h.Request(Request{ID: "big", Questions: []Question{textQ("a", false), textQ("b", false), textQ("c", false)}}); err == nil {
		t.Fatal("three questions were taken")
	}
	ask(t, h, Request{ID: "r", Questions: []Question{textQ("a", false)}}, a)
	if err := h.Request(Request{ID: "r2"}); err == nil {
		t.Fatal("a second open request was taken")
	}
	a.Dispatch(InputAnswerChanged{RequestID: "r", QuestionID: "a", Answer: draft(strings.Repeat("x", 11))})
	rejected(t, a, "longer than 10")
}

func TestCheckHookAndWithdraw(t *testing.T) {
	h, url := startHost(t, HostOptions{Check: func(r Request) error {
		if a := r.Answers["name"]; a.Value != nil && a.Value.Text == "bad" {
			return errors.New(`"name": does not match the pattern`)
		}
		return nil
	}})
	a := dial(t, url, ClientOptions{})
	ask(t, h, Request{ID: "r", Questions: []Question{textQ("name", true)}}, a)
	a.Dispatch(InputCompleted{RequestID: "r", Response: question.Accept, Answers: map[string]Answer{"name": submitted("bad")}})
	rejected(t, a, "does not match the pattern")
	h.Withdraw("r")
	ev := waitFor(t, a, "the withdrawal", completedEvent).(Changed)
	if ev.Origin != nil || ev.Action.(InputCompleted).Response != question.Cancel {
		t.Fatalf("withdrawal %+v", ev)
	}
	if c, ok := h.NextCompletion(queuedOnly()); ok { // Withdraw would have queued it
		t.Fatalf("a withdrawal was reported as a completion: %+v", c)
	}
}
