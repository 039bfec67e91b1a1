package acpconn

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

func TestDemoAgentTurn(t *testing.T) {
	c := start(t, "demo", Config{})
	if c.AgentName() == "" {
		t.Error("no agent name")
	}
	c.StartPrompt("hello")
	var evs []Event
	var tools = map[string]string{}
	sawPerm := false
	for {
		ev := next(t, c)
		evs = append(evs, ev)
		switch ev := ev.(type) {
		case question.Asked:
			sawPerm = true
			if !c.Answer(ev.Q, pick(ev.Q.Options[0].ID)) {
				t.Error("permission answer not taken")
			}
		case ToolCall:
			if ev.Status != "" {
				tools[ev.ID] = ev.Status
			}
		case TurnEnded:
			if ev.Err != nil || ev.StopReason != "end_turn" {
				t.Fatalf("turn ended with %q, %v", ev.StopReason, ev.Err)
			}
			if !sawPerm {
				t.Error("no permission request")
			}
			if len(tools) == 0 {
				t.Error("no tool call")
			}
			for id, st := range tools {
				if st != "completed" {
					t.Errorf("tool call %s ended %s", id, st)
				}
			}
			if strings.TrimSpace(agentText(evs)) == "" {
				t.Error("no reply text")
			}
			hasPlan := false
			for _, e := range evs {
				if _, ok := e.(Plan); ok {
					hasPlan = true
				}
			}
			if !hasPlan {
				t.Error("no plan")
			}
			return
		}
	}
}

func TestCapabilitiesAndCleanShutdownInTrace(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"both", Config{}, `"elicitation":{"form":{},"url":{}}`},
		{"no-form", Config{NoForm: true}, `"elicitation":{"url":{}}`},
		{"no-url", Config{NoURL: true}, `"elicitation":{"form":{}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var trace testkit.Buffer
			tc.cfg.Log = &trace
			c := start(t, "demo", tc.cfg)
			ex := c.Close()
			got := trace.String()
			for _, want := range []string{tc.want, `"fs":{"readTextFile":true,"writeTextFile":true}`, `"method":"initialize"`, `"method":"session/new"`, "shutdown:", "agent exited: exit status 0"} {
				if !strings.Contains(got, want) {
					t.Errorf("trace lacks %s:\n%s", want, got)
				}
			}
			if !strings.Contains(got, `"auth":{"terminal":true}`) {
				t.Error("terminal sign-in (auth.terminal) not declared")
			}
			if !strings.Contains(strings.ReplaceAll(got, `"auth":{"terminal":true}`, ""), `"terminal":true`) {
				t.Error("terminal not advertised")
			}
			if ex.Code != 0 {
				t.Errorf("exit %v", ex)
			}
		})
	}
}

func TestOddUpdatesAreKeptAndSanitized(t *testing.T) {
	c := start(t, "odd-updates", Config{})
	c.StartPrompt("go")
	end, evs := until[TurnEnded](t, c)
	if end.StopReason != "end_turn" {
		t.Fatalf("stop %q %v", end.StopReason, end.Err)
	}
	var early, unknown bool
	for _, ev := range evs {
		switch ev := ev.(type) {
		case ToolCall:
			if ev.ID == "t9" && !ev.New && ev.Status == "in_progress" {
				early = true
			}
		case UnknownUpdate:
			unknown = ev.Kind == "mystery_update"
		}
	}
	if !early {
		t.Error("update before its tool call was lost")
	}
	if !unknown {
		t.Error("unknown update kind not reported")
	}
	if got := agentText(evs); got != "xy<U+202E>" {
		t.Errorf("text not sanitized: %q", got)
	}
}

func TestAgentExitMidTurn(t *testing.T) {
	c := start(t, "exit-mid-turn", Config{})
	c.StartPrompt("go")
	var exited *AgentExited
	var ended *TurnEnded
	for exited == nil || ended == nil {
		switch ev := next(t, c).(type) {
		case AgentExited:
			exited = &ev
		case TurnEnded:
			ended = &ev
		}
	}
	if exited.Exit.Code != 3 {
		t.Errorf("exit %v", exited.Exit)
	}
	if !strings.Contains(strings.Join(exited.Stderr, "\n"), "boom: the agent hit a fatal error") {
		t.Errorf("stderr tail %q", exited.Stderr)
	}
	if ended.Err == nil {
		t.Error("turn did not fail")
	}
}

func TestCancelTurnAnswersPendingPermission(t *testing.T) {
	c := start(t, "cancel", Config{})
	c.StartPrompt("go")
	perm, _ := asked(t, c, question.Permission)
	if err := c.CancelTurn(); err != nil {
		t.Fatal(err)
	}
	// The withdrawal and what the agent says on hearing the cancel come
	// from two goroutines, in either order; both come before the turn's end.
	end, evs := until[TurnEnded](t, c)
	var closed []uint64
	for _, ev := range evs {
		if w, ok := ev.(question.Withdrawn); ok {
			closed = append(closed, w.ID)
		}
	}
	if len(closed) != 1 || closed[0] != perm.ID {
		t.Errorf("closed %v, want [%d]", closed, perm.ID)
	}
	if end.StopReason != "cancelled" {
		t.Errorf("stop %q", end.StopReason)
	}
	if got := agentText(evs); !strings.Contains(got, `"outcome":{"outcome":"cancelled"}`) {
		t.Errorf("agent saw %q", got)
	}
	if c.Answer(perm, pick("yes")) {
		t.Error("a cancelled request took an answer")
	}
}

func TestMalformedElicitationsAreRefusedByName(t *testing.T) {
	c := start(t, "bad-elicitations", Config{})
	c.StartPrompt("go")
	end, evs := until[TurnEnded](t, c)
	if end.StopReason != "end_turn" {
		t.Fatalf("session did not go on: %q %v", end.StopReason, end.Err)
	}
	lines := strings.Split(strings.TrimSpace(agentText(evs)), "\n")
	want := []string{"mode", "unknown mode", "addr", "when", "elicitationId", "javascript", "requestedSchema", "object",
		"people", "url does not parse", "100", "10000", "over the limit"}
	if len(lines) != len(want) {
		t.Fatalf("got %d answers: %q", len(lines), lines)
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, "-32602|") || !strings.Contains(l, want[i]) {
			t.Errorf("answer %d = %q, want -32602 naming %q", i, l, want[i])
		}
	}
}

func TestFormElicitationKeepsScopeAndOrder(t *testing.T) {
	c := start(t, "form", Config{})
	c.StartPrompt("go")
	req, _ := asked(t, c, question.Form)
	if req.From.Session != "s1" || req.From.ToolCall != "t7" {
		t.Errorf("scope %+v", req.From)
	}
	if len(req.Schema.Fields) != 2 || req.Schema.Fields[0].Key != "zeta" || req.Schema.Fields[1].Key != "alpha" {
		t.Fatalf("fields out of order: %+v", req.Schema.Fields)
	}
	c.Answer(req, question.Outcome{Action: question.Accept, Content: map[string]any{"zeta": "z", "alpha": int64(3)}})
	_, evs := until[TurnEnded](t, c)
	if got := agentText(evs); got != `{"action":"accept","content":{"alpha":3,"zeta":"z"}}` {
		t.Errorf("agent got %s", got)
	}
}

func TestFormModeWithheld(t *testing.T) {
	c := start(t, "form", Config{NoForm: true})
	c.StartPrompt("go")
	_, evs := until[TurnEnded](t, c)
	if got := agentText(evs); !strings.Contains(got, "null") {
		t.Errorf("agent got %s", got)
	}
	n, ok := findNotice(evs)
	if !ok || !strings.Contains(n.Text, "form mode was not declared") {
		t.Errorf("notice %+v", n)
	}
}

func findNotice(evs []Event) (Notice, bool) {
	for _, ev := range evs {
		if n, ok := ev.(Notice); ok {
			return n, true
		}
	}
	return Notice{}, false
}

func TestAgentWithdrawsElicitation(t *testing.T) {
	c := start(t, "withdraw", Config{})
	c.StartPrompt("go")
	req, _ := asked(t, c, question.Form)
	withdrawNow(t, c)
	closed, _ := until[question.Withdrawn](t, c)
	if closed.ID != req.ID || !strings.Contains(closed.Reason, "withdrew") {
		t.Errorf("closed %+v", closed)
	}
	_, evs := until[TurnEnded](t, c)
	if got := agentText(evs); got != "withdrawn:-32800" {
		t.Errorf("agent got %q", got)
	}
}

func TestFileSystemConfinedToSession(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/etc", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	c := start(t, "fs", Config{Dir: dir})
	c.StartPrompt("go")
	_, evs := until[TurnEnded](t, c)
	got := agentText(evs)
	want := `{};{"content":"two\n"};error -32602;error -32602;error -32602;`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "sub", "new.txt")); err != nil || string(b) != "one\ntwo\nthree\n" {
		t.Errorf("file %q %v", b, err)
	}
}

// A flood of updates neither closes the connection nor loses a chunk,
// even while the reader is slow to start.
func TestFloodIsThrottledNotDropped(t *testing.T) {
	c := start(t, "flood", Config{})
	c.StartPrompt("go")
	waitBackedUp(t, c) // the reader is slow to start: every buffer fills
	n := 0
	for {
		switch ev := next(t, c).(type) {
		case MessageChunk:
			n++
		case TurnEnded:
			if ev.Err != nil || ev.StopReason != "end_turn" {
				t.Fatalf("turn %q %v", ev.StopReason, ev.Err)
			}
			if n != 20000 {
				t.Errorf("got %d chunks, want 20000", n)
			}
			return
		}
	}
}

// waitBackedUp waits until nobody reads c's events and the agent is held
// back: the events channel is full and the reader stopped at its limit of
// lines read but not handled.
func waitBackedUp(t *testing.T, c *Conn) {
	t.Helper()
	testkit.Until(t, "a full event queue and a stopped reader", func() bool {
		c.reader.mu.Lock()
		held := c.reader.passed - c.reader.handled
		c.reader.mu.Unlock()
		return len(c.events) == cap(c.events) && held >= maxInFlightNotifications
	}, nil, nil)
}

func TestLineOverLimitEndsSessionClearly(t *testing.T) {
	c := start(t, "huge-line", Config{})
	c.StartPrompt("go")
	exited, _ := until[AgentExited](t, c)
	if !strings.Contains(exited.Reason, "over 10 MiB") {
		t.Errorf("reason %q", exited.Reason)
	}
}

func TestCompleteNotificationsReachUI(t *testing.T) {
	c := start(t, "complete", Config{})
	c.StartPrompt("go")
	_, evs := until[TurnEnded](t, c)
	var ids []string
	for _, ev := range evs {
		if e, ok := ev.(question.FlowComplete); ok {
			ids = append(ids, e.ElicitationID)
		}
	}
	if strings.Join(ids, ",") != "known,known,unknown" {
		t.Errorf("ids %v", ids)
	}
}

func TestStartFailsClearly(t *testing.T) {
	_, err := Start(t.Context(), Config{Argv: []string{"/nonexistent/agent"}, Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/agent") {
		t.Errorf("err %v", err)
	}
	if errors.Is(err, ErrLineTooLong) {
		t.Error("wrong error")
	}
}

// An agent that answers session/new with -32000 gets its listed methods
// offered; authenticate with one, and session/new then succeeds.
func TestAuthenticationRequired(t *testing.T) {
	c := start(t, "auth", Config{})
	ctx := t.Context()
	_, err := c.NewSession(ctx)
	if !IsAuthRequired(err) {
		t.Fatalf("err %v, want authentication required", err)
	}
	methods := c.AuthMethods()
	if len(methods) != 2 || methods[1].ID != "key" || methods[1].Name != "API key" || methods[0].Description != "opens a page" {
		t.Fatalf("methods %+v", methods)
	}
	err = c.Authenticate(ctx, "oauth")
	if err == nil || !strings.Contains(err.Error(), "Authentication failed: no browser here (-32000)") {
		t.Errorf("failed auth: %v", err)
	}
	if err := c.Authenticate(ctx, "key"); err != nil {
		t.Fatal(err)
	}
	st, err := c.NewSession(ctx)
	if err != nil || st.ID != "s1" {
		t.Fatalf("session %+v, %v", st, err)
	}
}

// A question reaches the UI after everything the agent sent before it,
// although the SDK runs requests ahead of queued notifications.
func TestRequestsDoNotOvertakeNotifications(t *testing.T) {
	c := start(t, "ordered", Config{})
	c.StartPrompt("go")
	seen := map[string]bool{}
	for {
		switch ev := next(t, c).(type) {
		case ToolCall:
			seen[ev.ID] = true
		case question.Asked:
			if !seen[ev.Q.From.ToolCall] {
				t.Errorf("form for %s arrived before its tool call", ev.Q.From.ToolCall)
			}
			c.Answer(ev.Q, question.Outcome{Action: question.Cancel})
		case TurnEnded:
			if len(seen) != 30 {
				t.Errorf("%d tool calls", len(seen))
			}
			return
		}
	}
}
