package mcpconn

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// connect starts the test binary as a stdio server over real pipes.
func connect(t *testing.T, cfg Config, env ...string) *Conn {
	t.Helper()
	lc := &procgroup.Lifecycle{}
	t.Cleanup(lc.Shutdown)
	cfg.Argv = []string{os.Args[0]}
	cfg.Env = append(append(os.Environ(), serverEnv+"=1"), env...)
	cfg.Lifecycle = lc
	if cfg.ProtocolVersion == "" { // elicitation/create as a request of its own
		cfg.ProtocolVersion = "2025-11-25"
	}
	if cfg.StartTimeout == 0 { // a start is slow on a busy machine, never late
		cfg.StartTimeout = testkit.Hang
	}
	c, err := Connect(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// next reads events until one of type T, failing only when none comes
// before testkit.Hang (a hang); the others are returned too.
func next[T Event](t *testing.T, c *Conn) (T, []Event) {
	t.Helper()
	var seen []Event
	deadline := time.After(testkit.Hang)
	for {
		select {
		case ev, ok := <-c.Events():
			if !ok {
				var zero T
				t.Fatalf("events ended before a %T; saw %#v", zero, seen)
			}
			if v, ok := ev.(T); ok {
				return v, seen
			}
			seen = append(seen, ev)
		case <-deadline:
			var zero T
			t.Fatalf("no %T; saw %#v", zero, seen)
		}
	}
}

type callResult struct {
	res *mcp.CallToolResult
	err error
}

func call(c *Conn, name string) chan callResult {
	ch := make(chan callResult, 1)
	go func() {
		res, err := c.CallTool(context.Background(), Call{Name: name})
		ch <- callResult{res, err}
	}()
	return ch
}

func textOf(t *testing.T, r callResult) string {
	t.Helper()
	if r.err != nil {
		t.Fatalf("call failed: %v", r.err)
	}
	var b strings.Builder
	for _, c := range r.res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// nextQuestion waits for the next question the server asks.
func nextQuestion(t *testing.T, c *Conn) *question.Question {
	t.Helper()
	a, _ := next[question.Asked](t, c)
	return a.Q
}

func keys(e *question.Question) string {
	var ks []string
	for _, f := range e.Schema.Fields {
		ks = append(ks, f.Key)
	}
	return strings.Join(ks, ",")
}

func TestFormComesInTheServersOrderAndGoesBackTyped(t *testing.T) {
	c := connect(t, Config{})
	done := call(c, "form")
	e := nextQuestion(t, c)
	if got := keys(e); got != "zeta,alpha,mid" {
		t.Errorf("fields %s, want the server's order zeta,alpha,mid", got)
	}
	if e.From.ToolCall != "form" || e.Message != "Fill this in" {
		t.Errorf("call %q message %q", e.From.ToolCall, e.Message)
	}
	if !c.Answer(e, question.Outcome{Action: question.Accept, Content: map[string]any{"zeta": "z", "alpha": json.Number("7"), "mid": []string{"b"}}}) {
		t.Fatal("Answer refused a waiting elicitation")
	}
	got := textOf(t, testkit.Recv(t, done, "the tool call's result"))
	for _, want := range []string{`"action":"accept"`, `"alpha":7`, `"mid":["b"]`, `"zeta":"z"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the server got %s, want %s in it", got, want)
		}
	}
	if c.Answer(e, question.Outcome{Action: question.Cancel}) {
		t.Error("a second answer was taken")
	}
}

func TestAnswerOutsideTheSchemaIsNeverSent(t *testing.T) {
	c := connect(t, Config{})
	done := call(c, "form")
	e := nextQuestion(t, c)
	c.Answer(e, question.Outcome{Action: question.Accept, Content: map[string]any{"alpha": json.Number("0")}})
	n, _ := next[Notice](t, c)
	if !n.Error || !strings.Contains(n.Text, "cancelled instead") {
		t.Errorf("notice %+v", n)
	}
	// Cancelled, not declined: the content was wrong, and nobody said no.
	if got := textOf(t, testkit.Recv(t, done, "the tool call's result")); !strings.Contains(got, `"action":"cancel"`) {
		t.Errorf("the server got %s, want a cancel", got)
	}
}

func TestURLElicitationAndItsCompletion(t *testing.T) {
	c := connect(t, Config{})
	done := call(c, "url")
	e := nextQuestion(t, c)
	if e.Kind != question.URL || e.ElicitationID != "e1" || e.Report.Site() != "example.com" {
		t.Fatalf("got %+v", e)
	}
	c.Answer(e, question.Outcome{Action: question.Accept})
	if ec, _ := next[question.FlowComplete](t, c); ec.ElicitationID != "e1" {
		t.Errorf("complete for %q", ec.ElicitationID)
	}
	if got := textOf(t, testkit.Recv(t, done, "the tool call's result")); !strings.Contains(got, `"action":"accept"`) {
		t.Errorf("the server got %s", got)
	}
}

func TestSchemaTheSDKRejectsIsToldToTheUser(t *testing.T) {
	c := connect(t, Config{})
	done := call(c, "nested")
	n, seen := next[Notice](t, c)
	for _, ev := range seen {
		if _, ok := ev.(question.Asked); ok {
			t.Error("a refused form reached the handler")
		}
	}
	if !strings.Contains(n.Text, "refused a form from testserver") || !strings.Contains(n.Text, "addr") {
		t.Errorf("notice %q", n.Text)
	}
	if got := textOf(t, testkit.Recv(t, done, "the tool call's result")); !strings.Contains(got, "error:") || !strings.Contains(got, "addr") {
		t.Errorf("the server got %s, want an error naming the property", got)
	}
}

func TestWithdrawnElicitationCloses(t *testing.T) {
	c := connect(t, Config{})
	done := call(c, "withdrawn")
	e := nextQuestion(t, c)
	w := call(c, "withdraw")
	cl, _ := next[question.Withdrawn](t, c)
	if cl.ID != e.ID || cl.Reason != "withdrawn by the server" {
		t.Errorf("closed %+v", cl)
	}
	if c.Answer(e, question.Outcome{Action: question.Accept}) {
		t.Error("an answer to a withdrawn elicitation was taken")
	}
	textOf(t, testkit.Recv(t, w, "the tool call's result"))
	testkit.Recv(t, done, "the tool call's result")
}

func TestCancelSendsNotificationsCancelled(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "cancelled")
	c := connect(t, Config{}, "MCPCONN_CANCELLED="+marker)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, Call{Name: "slow", ProgressToken: "p1"})
		errc <- err
	}()
	p, _ := next[Progress](t, c)
	if p.Token != "p1" || p.Total != 100 || !strings.HasPrefix(p.Message, "step") {
		t.Errorf("progress %+v", p)
	}
	cancel()
	if err := testkit.Recv(t, errc, "end of the cancelled call"); !errors.Is(err, context.Canceled) {
		t.Errorf("call ended with %v", err)
	}
	testkit.Until(t, "notifications/cancelled at the server", func() bool {
		b, _ := os.ReadFile(marker)
		return string(b) == "cancelled"
	}, nil, nil)
}

func TestServerDyingMidFormClosesTheForm(t *testing.T) {
	c := connect(t, Config{})
	done := call(c, "form")
	e := nextQuestion(t, c)
	call(c, "exit")
	cl, _ := next[question.Withdrawn](t, c)
	if cl.ID != e.ID || !strings.Contains(cl.Reason, "server went away") {
		t.Errorf("closed %+v", cl)
	}
	ex, _ := next[Exited](t, c)
	if !strings.Contains(ex.Reason, "exit status 3") || !strings.Contains(strings.Join(ex.Stderr, "\n"), "exiting mid-form") {
		t.Errorf("exited %+v", ex)
	}
	if r := testkit.Recv(t, done, "the tool call's result"); r.err == nil {
		t.Error("the form's call succeeded on a dead server")
	}
	if c.Answer(e, question.Outcome{Action: question.Cancel}) {
		t.Error("an answer after the server died was taken")
	}
}

func TestURLRequiredError(t *testing.T) {
	c := connect(t, Config{})
	r := testkit.Recv(t, call(c, "needs-url"), "the tool call's result")
	reqs, refused, ok := c.URLRequired(r.err)
	if !ok {
		t.Fatalf("not read as -32042: %v", r.err)
	}
	if len(reqs) != 1 || reqs[0].ElicitationID != "pre1" || reqs[0].ID != 0 || reqs[0].Report.Site() != "example.com" {
		t.Errorf("reqs %+v", reqs)
	}
	if len(refused) != 1 || !strings.Contains(refused[0], "not allowed") {
		t.Errorf("refused %q", refused)
	}
	if _, _, ok := c.URLRequired(errors.New("other")); ok {
		t.Error("a plain error read as -32042")
	}
}

func TestCapabilitiesDeclared(t *testing.T) {
	for _, tc := range []struct {
		cfg        Config
		want, none []string
	}{
		{Config{}, []string{`"elicitation":{"form":{},"url":{}}`}, []string{"sampling", "tasks"}},
		{Config{NoURL: true}, []string{`"elicitation":{"form":{}}`}, []string{`"url"`}},
		{Config{NoForm: true}, []string{`"elicitation":{"url":{}}`}, []string{`"form"`}},
		{Config{NoForm: true, NoURL: true}, nil, []string{"elicitation"}},
	} {
		c := connect(t, tc.cfg)
		got := textOf(t, testkit.Recv(t, call(c, "caps"), "the tool call's result"))
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%+v: capabilities %s, want %s", tc.cfg, got, w)
			}
		}
		for _, n := range tc.none {
			if strings.Contains(got, n) {
				t.Errorf("%+v: capabilities %s declare %s", tc.cfg, got, n)
			}
		}
	}
}

func TestStreamableHTTPWithHeader(t *testing.T) {
	var header atomic.Value
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return testServer() }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("X-Test"); v != "" {
			header.Store(v)
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c, err := Connect(context.Background(), Config{URL: srv.URL, Header: http.Header{"X-Test": {"yes"}}, ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Info().Title != "Test Server" {
		t.Errorf("info %+v", c.Info())
	}
	done := call(c, "form")
	e := nextQuestion(t, c)
	if got := keys(e); got != "zeta,alpha,mid" {
		t.Errorf("over HTTP the fields are %s, want zeta,alpha,mid", got)
	}
	c.Answer(e, question.Outcome{Action: question.Decline})
	if got := textOf(t, testkit.Recv(t, done, "the tool call's result")); !strings.Contains(got, "decline") {
		t.Errorf("the server got %s", got)
	}
	if header.Load() != "yes" {
		t.Error("--header was not sent")
	}
	tools, err := c.Tools(context.Background())
	if err != nil || len(tools) == 0 || tools[0].Title == "" {
		t.Errorf("tools %+v, %v", tools, err)
	}
}

// TestMultiRoundTripInputRequest checks that a 2026-07-28 input request
// (an elicitation inside a tools/call result) reaches the same handler, in
// the server's property order, and that the answer completes the call.
func TestMultiRoundTripInputRequest(t *testing.T) {
	c := connect(t, Config{ProtocolVersion: "2026-07-28"})
	done := call(c, "mrtr-form")
	e := nextQuestion(t, c)
	if got := keys(e); got != "zeta,alpha,mid" {
		t.Errorf("fields %s, want zeta,alpha,mid", got)
	}
	c.Answer(e, question.Outcome{Action: question.Accept, Content: map[string]any{"zeta": "z"}})
	if got := textOf(t, testkit.Recv(t, done, "the tool call's result")); !strings.Contains(got, `"zeta":"z"`) {
		t.Errorf("the server got %s", got)
	}
}
