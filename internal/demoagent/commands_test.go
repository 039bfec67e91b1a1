package demoagent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

func TestCancelSlow(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	type result struct {
		resp acp.PromptResponse
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := c.prompt("/slow")
		done <- result{resp, err}
	}()
	// Cancel once the turn has streamed something.
	for !strings.Contains(c.messageText(), "Working slowly") {
		select {
		case <-c.updated:
		case <-time.After(waitLimit):
			t.Fatal("/slow streamed nothing")
		}
	}
	if err := c.conn.SendNotification(context.Background(), acp.AgentMethodSessionCancel, acp.CancelNotification{SessionId: c.sid}); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.err != nil || r.resp.StopReason != acp.StopReasonCancelled {
			t.Fatalf("cancelled /slow: %+v, %v", r.resp, r.err)
		}
	case <-time.After(waitLimit):
		t.Fatal("/slow did not stop after session/cancel")
	}
	if strings.Contains(c.messageText(), "nobody cancelled me") {
		t.Error("/slow ran to its end")
	}
	// The session goes on.
	c.mustPrompt("/help", acp.StopReasonEndTurn)
}

func TestFlood(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	c.mustPrompt("flood 1000", acp.StopReasonEndTurn)
	updates, _, _ := c.snapshot()
	chunks := 0
	for _, u := range updates {
		if m := u.Update.AgentMessageChunk; m != nil {
			chunks++
			if txt := m.Content.Text.Text; !strings.HasSuffix(txt, " ") || strings.TrimSpace(txt) == "" {
				t.Errorf("chunk %q is not a word and a space", txt)
			}
		}
	}
	if chunks != 1000 {
		t.Errorf("got %d chunks, want 1000", chunks)
	}
}

func TestExit(t *testing.T) {
	var stderr bytes.Buffer
	var mu sync.Mutex
	var c *testClient
	codes := make(chan int, 1)
	c = startAgent(t, bothModes, Options{
		Stderr: &syncWriter{mu: &mu, w: &stderr},
		Exit: func(code int) {
			codes <- code
			// What the process ending does to its pipes: nothing more gets out.
			c.closeOut()
			c.closeIn()
		},
	})
	if _, err := c.prompt("/exit 3"); err == nil {
		t.Error("the prompt succeeded although the agent exited")
	}
	if code := <-codes; code != 3 {
		t.Errorf("exit code %d, want 3", code)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(stderr.String(), "exiting with code 3") {
		t.Errorf("stderr = %q", stderr.String())
	}
}

type syncWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func TestBad(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	c.setInstant()
	var modes []string
	var mu sync.Mutex
	c.onElicit = func(params json.RawMessage) (any, *acp.RequestError) {
		var p struct {
			Mode *string `json:"mode"`
		}
		_ = json.Unmarshal(params, &p)
		mu.Lock()
		defer mu.Unlock()
		if p.Mode == nil {
			modes = append(modes, "<none>")
		} else {
			modes = append(modes, *p.Mode)
		}
		if len(modes) == 1 { // accept the first, to see it flagged
			return map[string]any{"action": actionAccept, "content": map[string]any{}}, nil
		}
		return nil, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("refused case %d", len(modes))})
	}
	c.mustPrompt("/bad", acp.StopReasonEndTurn)
	text := c.messageText()
	if n := strings.Count(text, "`-32602 Invalid params"); n != len(badCases())-1 {
		t.Errorf("%d refusals reported, want %d:\n%s", n, len(badCases())-1, text)
	}
	if !strings.Contains(text, "**not refused**") {
		t.Errorf("the accepted case is not flagged:\n%s", text)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"form", "form", "form", "form", "<none>", "banner", "url", "url"}
	if strings.Join(modes, ",") != strings.Join(want, ",") {
		t.Errorf("modes sent = %v, want %v", modes, want)
	}
}

func TestAllAtOnce(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	c.setInstant()
	// Each handler waits until all three requests are in, which only works if the agent sent
	// them together.
	var arrived sync.WaitGroup
	arrived.Add(3)
	barrier := func() bool {
		arrived.Done()
		ch := make(chan struct{})
		go func() { arrived.Wait(); close(ch) }()
		select {
		case <-ch:
			return true
		case <-time.After(waitLimit):
			return false
		}
	}
	c.onElicit = func(p json.RawMessage) (any, *acp.RequestError) {
		if !barrier() {
			t.Error("the three requests were not sent at once")
		}
		return acceptDefaults(p)
	}
	c.onPermission = func(p acp.RequestPermissionRequest) (any, *acp.RequestError) {
		if !barrier() {
			t.Error("the three requests were not sent at once")
		}
		return pickOption(optRejectOnce)(p)
	}
	c.mustPrompt("/all", acp.StopReasonEndTurn)
	_, elicitations, perms := c.snapshot()
	if len(elicitations) != 2 || len(perms) != 1 {
		t.Fatalf("got %d elicitations and %d permissions, want 2 and 1", len(elicitations), len(perms))
	}
	text := c.messageText()
	for _, want := range []string{"### Form", "### URL", "### Permission", "reject_once", `"name": "John Doe"`} {
		if !strings.Contains(text, want) {
			t.Errorf("reply misses %q:\n%s", want, text)
		}
	}
}

func TestHelpAndUnknownCommand(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	c.setInstant()
	c.mustPrompt("/help", acp.StopReasonEndTurn)
	text := c.messageText()
	for _, want := range []string{"/form [name]", "/flood N", "/exit [code]", "`defaults`", "`other`"} {
		if !strings.Contains(text, want) {
			t.Errorf("/help misses %q", want)
		}
	}
	c.reset()
	c.mustPrompt("/nope", acp.StopReasonEndTurn)
	if !strings.Contains(c.messageText(), "Unknown command `/nope`") {
		t.Errorf("reply = %q", c.messageText())
	}
}

func TestCancelWhileFormIsOpen(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	c.setInstant()
	arrived, release := make(chan struct{}), make(chan struct{})
	c.onElicit = func(p json.RawMessage) (any, *acp.RequestError) {
		close(arrived)
		<-release // the user never answers while the turn is cancelled
		return answerAction(actionCancel)(p)
	}
	defer close(release)
	done := make(chan acp.StopReason, 1)
	go func() {
		resp, err := c.prompt("/form defaults")
		if err != nil {
			t.Errorf("prompt: %v", err)
		}
		done <- resp.StopReason
	}()
	select {
	case <-arrived:
	case <-time.After(waitLimit):
		t.Fatal("no form arrived")
	}
	if err := c.conn.SendNotification(context.Background(), acp.AgentMethodSessionCancel, acp.CancelNotification{SessionId: c.sid}); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-done:
		if got != acp.StopReasonCancelled {
			t.Errorf("stopReason %q, want cancelled", got)
		}
	case <-time.After(waitLimit):
		t.Fatal("the turn waited for the form after session/cancel")
	}
	if strings.Contains(c.messageText(), "Received") {
		t.Error("the cancelled turn reported an answer")
	}
}
