package acpconn

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

func TestServeAgentExit(t *testing.T) {
	h := &testHandler{elicit: defaults, permit: firstAllow}
	c, served := serve(t, "demo", h)
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	if _, err := c.Prompt(ctx, "/exit 3"); err == nil || !strings.Contains(err.Error(), "exited") {
		t.Errorf("Prompt when the agent exits: %v", err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve returned %v after the agent exited, want nil", err)
		}
	case <-ctx.Done():
		t.Fatal("Serve did not return after the agent exited")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, last := h.events[len(h.events)-1].(AgentExited); !last || !h.sawAgentExited {
		t.Errorf("AgentExited was not the last event: %T", h.events[len(h.events)-1])
	}
}

// TestServeStopCancelsQuestions: when Serve stops, the question it holds
// is answered cancel, so the agent is not left waiting.
func TestServeStopCancelsQuestions(t *testing.T) {
	asked := make(chan struct{})
	h := &testHandler{permit: firstAllow, elicit: func(ctx context.Context, _ *question.Question) question.Outcome {
		close(asked)
		<-ctx.Done()
		return question.Outcome{Action: question.Accept, Content: map[string]any{"zeta": "z"}}
	}}
	c := start(t, "form", Config{})
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- c.Serve(ctx, h) }()
	c.StartPrompt("go")
	testkit.Recv(t, asked, "question")
	stop()
	if err := testkit.Recv(t, served, "end of Serve"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Serve = %v, want context.Canceled", err)
	}
	var said strings.Builder
	for {
		switch ev := next(t, c).(type) {
		case MessageChunk:
			said.WriteString(ev.Text)
		case TurnEnded:
			if said.String() != `{"action":"cancel"}` {
				t.Errorf("the agent received %s, want cancel", said.String())
			}
			return
		}
	}
}

// TestPromptServeOrder: a Prompt made just before its Serve starts still
// gets its turn; a second Serve and a second turn at once are refused.
func TestPromptServeOrder(t *testing.T) {
	c := start(t, "demo", Config{})
	h := &testHandler{elicit: defaults, permit: firstAllow}
	first := make(chan TurnEnded, 1)
	go func() {
		te, _ := c.Prompt(context.Background(), "/forms 1")
		first <- te
	}()
	testkit.Until(t, "the server Prompt makes", func() bool { return c.serving.Load() != nil }, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Serve(ctx, h)
	if te := testkit.Recv(t, first, "end of the turn before Serve"); te.StopReason != "end_turn" || !strings.Contains(h.said(), "Accepted 1 of 1") {
		t.Fatalf("the turn before Serve: %+v, %q", te, h.said())
	}
	if err := c.Serve(ctx, h); err == nil {
		t.Error("a second Serve on the connection was accepted")
	}
	slow := make(chan TurnEnded, 1)
	go func() {
		te, _ := c.Prompt(context.Background(), "/slow")
		slow <- te
	}()
	waitSaid(t, h, "Working slowly")
	if _, err := c.Prompt(context.Background(), "hi"); !errors.Is(err, ErrTurnRunning) {
		t.Errorf("Prompt during a turn = %v", err)
	}
	if err := c.CancelTurn(); err != nil {
		t.Fatal(err)
	}
	if te := testkit.Recv(t, slow, "end of the slow turn"); te.StopReason != "cancelled" {
		t.Errorf("the slow turn ended with %q", te.StopReason)
	}
}

// TestPromptCancelledByContext: when Prompt's ctx ends, the turn is
// cancelled as the protocol asks and Prompt returns once the agent ended
// it, with ctx's error.
func TestPromptCancelledByContext(t *testing.T) {
	h := &testHandler{elicit: defaults, permit: firstAllow}
	c, _ := serve(t, "demo", h)
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		te  TurnEnded
		err error
	}
	ended := make(chan result, 1)
	go func() {
		te, err := c.Prompt(ctx, "/slow")
		ended <- result{te, err}
	}()
	waitSaid(t, h, "Working slowly")
	cancel()
	r := testkit.Recv(t, ended, "return of the cancelled Prompt")
	if !errors.Is(r.err, context.Canceled) || r.te.StopReason != "cancelled" {
		t.Errorf("Prompt = %+v, %v; want the turn cancelled and context.Canceled", r.te, r.err)
	}
	if te := prompt(t, c, "/forms 1"); te.StopReason != "end_turn" {
		t.Errorf("the next turn ended with %q", te.StopReason)
	}
}
