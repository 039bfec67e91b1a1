package acpconn

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// testHandler is a Handler whose answers each test sets; it records what
// it was asked and every event, and how many questions it held at once.
type testHandler struct {
	elicit func(ctx context.Context, q *question.Question) question.Outcome
	permit func(ctx context.Context, q *question.Question) question.Outcome

	mu             sync.Mutex
	asked          []string // "form", "url" or "permission", in order
	active, most   int
	events         []Event
	text           strings.Builder
	sawAgentExited bool
}

func (h *testHandler) hold(kind string) func() {
	h.mu.Lock()
	h.asked = append(h.asked, kind)
	h.active++
	h.most = max(h.most, h.active)
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		h.active--
		h.mu.Unlock()
	}
}

func (h *testHandler) Elicit(ctx context.Context, q *question.Question) question.Outcome {
	defer h.hold(q.Kind.String())()
	return h.elicit(ctx, q)
}

func (h *testHandler) RequestPermission(ctx context.Context, q *question.Question) question.Outcome {
	defer h.hold("permission")()
	return h.permit(ctx, q)
}

func (h *testHandler) HandleEvent(ev Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, ev)
	switch ev := ev.(type) {
	case MessageChunk:
		if ev.Role == RoleAgent {
			h.text.WriteString(ev.Text)
		}
	case AgentExited:
		h.sawAgentExited = true
	}
}

// first reports whether this is the first question the handler holds.
func (h *testHandler) first() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.asked) == 1
}

// waitSaid waits until the agent's words hold s.
func waitSaid(t *testing.T, h *testHandler, s string) {
	t.Helper()
	testkit.Until(t, "agent text "+s, func() bool { return strings.Contains(h.said(), s) }, nil, h.said)
}

// waiting is how many of the agent's requests wait for an answer.
func (c *Conn) waiting() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

func (h *testHandler) said() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.text.String()
}

func (h *testHandler) notices() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, ev := range h.events {
		if n, ok := ev.(Notice); ok {
			out = append(out, n.Text)
		}
	}
	return out
}

// defaults answers every form with its defaults and every URL with accept.
func defaults(_ context.Context, q *question.Question) question.Outcome {
	if q.Kind == question.URL {
		return question.Outcome{Action: question.Accept}
	}
	content, err := q.Schema.FromAnswers(nil)
	if err != nil {
		return question.Outcome{Action: question.Decline}
	}
	return question.Outcome{Action: question.Accept, Content: content}
}

// firstAllow picks the first allow option.
func firstAllow(_ context.Context, q *question.Question) question.Outcome {
	for _, o := range q.Options {
		if strings.HasPrefix(o.Kind, "allow") {
			return pick(o.ID)
		}
	}
	return pick("")
}

// serve starts agent, runs Serve with h until the test ends, and returns
// the connection and Serve's result.
func serve(t *testing.T, agent string, h Handler) (*Conn, <-chan error) {
	t.Helper()
	c := start(t, agent, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- c.Serve(ctx, h) }()
	t.Cleanup(func() {
		cancel()
		c.Close()
	})
	return c, served
}

func prompt(t *testing.T, c *Conn, text string) TurnEnded {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	te, err := c.Prompt(ctx, text)
	if err != nil {
		t.Fatalf("Prompt(%q): %v", text, err)
	}
	return te
}

func TestServeAnswersForms(t *testing.T) {
	h := &testHandler{elicit: defaults, permit: firstAllow}
	c, _ := serve(t, "demo", h)
	te := prompt(t, c, "/forms 3")
	if te.StopReason != "end_turn" {
		t.Errorf("stop reason %q", te.StopReason)
	}
	if got := h.said(); !strings.Contains(got, "Accepted 3 of 3 forms") {
		t.Errorf("the agent said %q", got)
	}
}

// TestServeChecksAnswers: what a Handler returns is checked before it is
// sent: content that does not fit the schema, an action that does not
// exist and an option the agent did not offer are all answered cancelled,
// with a notice.
func TestServeChecksAnswers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		action  question.Action
		content map[string]any
		want    string
		notice  string
	}{
		{"fits", "accept", map[string]any{"zeta": "z", "alpha": json.Number("7")}, `{"action":"accept","content":{"alpha":7,"zeta":"z"}}`, ""},
		{"missing required", "accept", map[string]any{"alpha": json.Number("7")}, `{"action":"cancel"}`, "does not fit its schema"},
		{"wrong type", "accept", map[string]any{"zeta": "z", "alpha": "seven"}, `{"action":"cancel"}`, "does not fit its schema"},
		{"no such action", "yes", nil, `{"action":"cancel"}`, `answered an elicitation with "yes"`},
		{"decline drops content", "decline", map[string]any{"zeta": "z"}, `{"action":"decline"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &testHandler{permit: firstAllow, elicit: func(context.Context, *question.Question) question.Outcome {
				return question.Outcome{Action: tc.action, Content: tc.content}
			}}
			c, _ := serve(t, "form", h)
			prompt(t, c, "go")
			if got := h.said(); got != tc.want {
				t.Errorf("the agent received %s, want %s", got, tc.want)
			}
			notes := strings.Join(h.notices(), "\n")
			if (tc.notice == "") != (notes == "") || !strings.Contains(notes, tc.notice) {
				t.Errorf("notices %q, want one saying %q", notes, tc.notice)
			}
		})
	}
}

func TestServePermissionOption(t *testing.T) {
	var choice func(*question.Question) question.Outcome
	h := &testHandler{elicit: defaults, permit: func(_ context.Context, q *question.Question) question.Outcome { return choice(q) }}
	c, _ := serve(t, "demo", h)
	for _, tc := range []struct {
		name   string
		choose func(*question.Question) question.Outcome
		want   string
	}{
		{"allow once", func(q *question.Question) question.Outcome { return firstAllow(context.TODO(), q) }, "you allowed the edit once"},
		{"no such option", func(*question.Question) question.Outcome { return pick("no-such-option") }, "the permission request was cancelled"},
		{"none", func(*question.Question) question.Outcome { return pick("") }, "the permission request was cancelled"},
	} {
		choice = tc.choose
		h.mu.Lock()
		h.text.Reset()
		h.mu.Unlock()
		prompt(t, c, "hello")
		if got := h.said(); !strings.Contains(got, tc.want) {
			t.Errorf("%s: the agent said %q, want %q", tc.name, got, tc.want)
		}
	}
	if notes := strings.Join(h.notices(), "\n"); !strings.Contains(notes, `option "no-such-option", which the agent did not offer`) {
		t.Errorf("notices %q", notes)
	}
}

// TestServeOneQuestionAtATime: the demo's /all asks a form, a URL and a
// permission at once; the Handler gets them one after another.
func TestServeOneQuestionAtATime(t *testing.T) {
	// A person takes a moment: the first answer waits until the
	// connection holds all three questions, so overlapping calls would
	// show.
	release := make(chan struct{})
	h := &testHandler{}
	hold := func() {
		if h.first() {
			<-release
		}
	}
	h.elicit = func(ctx context.Context, q *question.Question) question.Outcome {
		hold()
		return defaults(ctx, q)
	}
	h.permit = func(ctx context.Context, q *question.Question) question.Outcome {
		hold()
		return firstAllow(ctx, q)
	}
	c, _ := serve(t, "demo", h)
	turn := make(chan error, 1)
	go func() {
		_, err := c.Prompt(context.Background(), "/all")
		turn <- err
	}()
	testkit.Until(t, "all three questions waiting", func() bool { return c.waiting() == 3 }, nil, nil)
	close(release)
	if err := testkit.Recv(t, turn, "end of the turn"); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.asked) != 3 || h.most != 1 {
		t.Errorf("asked %q, at most %d at once; want 3 questions, one at a time", h.asked, h.most)
	}
}

// TestServeWithdrawn: a question the agent withdraws ends the Handler's
// ctx, and the turn goes on.
func TestServeWithdrawn(t *testing.T) {
	ended := make(chan error, 1)
	var c *Conn
	h := &testHandler{permit: firstAllow, elicit: func(ctx context.Context, _ *question.Question) question.Outcome {
		withdrawNow(t, c) // the question is held: the agent may withdraw it
		<-ctx.Done()
		ended <- ctx.Err()
		return question.Outcome{Action: question.Accept, Content: map[string]any{"x": "too late"}}
	}}
	c, _ = serve(t, "withdraw", h)
	prompt(t, c, "go")
	if err := testkit.Recv(t, ended, "end of the Handler's ctx"); !errors.Is(err, context.Canceled) {
		t.Errorf("the Handler's ctx ended with %v", err)
	}
	if got := h.said(); !strings.Contains(got, "withdrawn:-32800") {
		t.Errorf("the agent said %q", got)
	}
}
