package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// script writes a bash script into dir and returns a hook running it,
// with no timeout short of testkit.Hang: on a busy machine a hook is slow,
// never late.
func script(t *testing.T, dir, name, body string, event config.Event) config.Hook {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/bash\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return config.Hook{Event: event, Command: []string{p}, Timeout: config.Duration(testkit.Hang)}
}

// pidFile waits for a file a hook writes its child's pid to, and returns
// the pid. It fails at once if done (the hook's run) ends first.
func pidFile(t *testing.T, path string, done <-chan struct{}) string {
	t.Helper()
	var pid []byte
	testkit.Until(t, "the hook's child", func() bool {
		select {
		case <-done:
			t.Fatal("the hook ended before it started its child")
		default:
		}
		b, err := os.ReadFile(path)
		if err == nil && bytes.HasSuffix(b, []byte("\n")) {
			pid = b
			return true
		}
		return false
	}, nil, nil)
	return strings.TrimSpace(string(pid))
}

const accept = `{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"name":"Ada","n":12345678901234567890}}}`

func formInput() Input {
	return Input{Agent: "claude", SessionID: "s1", Message: "Who?", Mode: "form", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)}
}

func urlInput() Input {
	return Input{Agent: "claude", SessionID: "s1", Message: "Sign in", Mode: "url", URL: "https://example.com/login", ElicitationID: "e1"}
}

func TestRunElicitation(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		in       Input
		decision Decision
		action   question.Action
		content  string
		reason   string
		errText  string
	}{
		{"answers", "cat >/dev/null; echo '" + accept + "'", formInput(), Answer, question.Accept, `{"name":"Ada","n":12345678901234567890}`, "", ""},
		{"accept without content", `echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept"}}'`, formInput(), Answer, question.Accept, `{}`, "", ""},
		{"declines", `echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"decline","content":{"a":1}}}'`, formInput(), Answer, question.Decline, "", "", ""},
		{"cancels", `echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"cancel"}}'`, formInput(), Answer, question.Cancel, "", "", ""},
		{"exit 2", "echo 'not on a Friday' >&2; exit 2", formInput(), Declined, question.Decline, "", "not on a Friday", ""},
		{"block", `echo '{"decision":"block","reason":"policy"}'`, formInput(), Declined, question.Decline, "", "policy", ""},
		{"silent", "exit 0", formInput(), Pass, "", "", "", ""},
		{"no action", `echo '{"hookSpecificOutput":{"hookEventName":"Elicitation"}}'`, formInput(), Pass, "", "", "", ""},
		{"other output", `echo '{"continue":true}'`, formInput(), Pass, "", "", "", ""},
		{"garbage", "echo 'hello world'", formInput(), Pass, "", "", "", "not a JSON answer"},
		{"exit 1", "echo oops >&2; exit 1", formInput(), Pass, "", "", "", "exit status 1: oops"},
		{"wrong event", `echo '{"hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"accept"}}'`, formInput(), Pass, "", "", "", `hookEventName is "ElicitationResult"`},
		{"unknown action", `echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"allow"}}'`, formInput(), Pass, "", "", "", `unknown action "allow"`},
		{"content not object", `echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":[1]}}'`, formInput(), Pass, "", "", "", "not a JSON object"},
		{"url accept refused", `echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept"}}'`, urlInput(), Pass, "", "", "", "may not accept a URL-mode question"},
		{"url decline", `echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"decline"}}'`, urlInput(), Answer, question.Decline, "", "", ""},
		{"escapes in stderr", "printf 'bad\\033[2J\\n\\u202eevil' >&2; exit 2", formInput(), Declined, question.Decline, "", "bad\uFFFD[2J / \uFFFDevil", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := script(t, t.TempDir(), "hook", tt.body, config.Elicitation)
			res, err := New([]config.Hook{h}).RunElicitation(context.Background(), tt.in)
			if res.Decision != tt.decision || res.Action != tt.action || string(res.Content) != tt.content || res.Reason != tt.reason {
				t.Errorf("result = %+v (content %s)", res, res.Content)
			}
			if tt.decision != Pass && res.Hook != h.Command[0] {
				t.Errorf("Hook = %q", res.Hook)
			}
			if tt.errText == "" {
				if err != nil {
					t.Errorf("err = %v", err)
				}
				return
			}
			var he *Error
			if !errors.As(err, &he) || he.Hook != h.Command[0] || he.Event != config.Elicitation || !strings.Contains(err.Error(), tt.errText) {
				t.Errorf("err = %v, want an *Error with %q", err, tt.errText)
			}
		})
	}
}

func TestInputOnStdin(t *testing.T) {
	dir := t.TempDir()
	cwd := t.TempDir()
	h := script(t, dir, "hook", `cat > "`+dir+`/input.json"; pwd > "`+dir+`/pwd"; echo "$CLAUDE_PROJECT_DIR" > "`+dir+`/env"`, config.Elicitation)
	in := formInput()
	in.Cwd, in.ToolCallID = cwd, "call_7"
	if _, err := New([]config.Hook{h}).RunElicitation(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"hook_event_name": "Elicitation", "session_id": "s1", "cwd": cwd, "message": "Who?", "mode": "form",
		"agent": "claude", "mcp_server_name": "claude", "tool_call_id": "call_7"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if _, ok := got["requested_schema"].(map[string]any); !ok {
		t.Errorf("requested_schema = %v", got["requested_schema"])
	}
	for _, k := range []string{"action", "content", "url"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s present in an Elicitation input", k)
		}
	}
	for file, want := range map[string]string{"pwd": cwd, "env": cwd} {
		if b, _ := os.ReadFile(filepath.Join(dir, file)); strings.TrimSpace(string(b)) != want {
			t.Errorf("%s = %q, want %q", file, b, want)
		}
	}
}

// TestTimeoutKillsGroup runs a hook that starts a child and hangs: at its
// timeout both must be dead. The time is up once the hook started its
// child (see newDeadline), however long that took.
func TestTimeoutKillsGroup(t *testing.T) {
	dir := t.TempDir()
	h := script(t, dir, "hang", `echo started >&2; sleep 300 & echo $! > "`+dir+`/child.pid"; wait`, config.Elicitation)
	h.Timeout = config.Duration(300 * time.Millisecond)
	clock := make(chan *time.Timer, 1)
	newDeadline = func(d time.Duration) *time.Timer {
		if d != time.Duration(h.Timeout) {
			t.Errorf("the hook's clock was set to %v, want its timeout", d)
		}
		timer := time.NewTimer(testkit.Hang)
		clock <- timer
		return timer
	}
	t.Cleanup(func() { newDeadline = time.NewTimer })
	type result struct {
		res Result
		err error
	}
	ran := make(chan result, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		res, err := New([]config.Hook{h}).RunElicitation(context.Background(), formInput())
		ran <- result{res, err}
	}()
	pid := pidFile(t, filepath.Join(dir, "child.pid"), done)
	testkit.Recv(t, clock, "start of the hook's clock").Reset(0) // time is up
	r := testkit.Recv(t, ran, "end of the hook's run")
	if r.res.Decision != Pass || r.err == nil || !strings.Contains(r.err.Error(), "timed out after 300ms") || !strings.Contains(r.err.Error(), "started") {
		t.Fatalf("res = %+v, err = %v", r.res, r.err)
	}
	waitGone(t, pid)
}

// waitGone waits until the process is gone or a zombie (killed, waiting to
// be reaped by init).
func waitGone(t *testing.T, pid string) {
	t.Helper()
	testkit.Until(t, "end of the hook's child "+pid, func() bool {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			return true
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		return len(f) > 0 && f[0] == "Z"
	}, nil, nil)
}

func TestCancelledContext(t *testing.T) {
	dir := t.TempDir()
	h := script(t, dir, "hang", `sleep 300 & echo $! > "`+dir+`/child.pid"; wait`, config.Elicitation)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := New([]config.Hook{h}).RunElicitation(ctx, formInput())
		ran <- err
	}()
	pid := pidFile(t, filepath.Join(dir, "child.pid"), done)
	cancel() // once the hook started its child
	if err := testkit.Recv(t, ran, "end of the hook's run"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	waitGone(t, pid)
}

func TestOrderAndGlobs(t *testing.T) {
	dir := t.TempDir()
	other := script(t, dir, "other", `touch "`+dir+`/other-ran"; echo '`+accept+`'`, config.Elicitation)
	other.Agent = "gemini*"
	result := script(t, dir, "result", `touch "`+dir+`/result-ran"`, config.ElicitationResult)
	pass := script(t, dir, "pass", `touch "`+dir+`/pass-ran"`, config.Elicitation)
	broken := script(t, dir, "broken", `exit 3`, config.Elicitation)
	answers := script(t, dir, "answers", `echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"decline"}}'`, config.Elicitation)
	answers.Agent = "claude*"
	late := script(t, dir, "late", `touch "`+dir+`/late-ran"`, config.Elicitation)
	r := New([]config.Hook{other, result, pass, broken, answers, late})
	res, err := r.RunElicitation(context.Background(), formInput())
	if res.Decision != Answer || res.Action != question.Decline || res.Hook != answers.Command[0] {
		t.Errorf("res = %+v", res)
	}
	var he *Error
	if !errors.As(err, &he) || he.Hook != broken.Command[0] || !strings.Contains(he.Reason, "exit status 3") {
		t.Errorf("err = %v, want the broken hook's failure", err)
	}
	for file, ran := range map[string]bool{"other-ran": false, "result-ran": false, "pass-ran": true, "late-ran": false} {
		if _, err := os.Stat(filepath.Join(dir, file)); (err == nil) != ran {
			t.Errorf("%s: ran = %v, want %v", file, err == nil, ran)
		}
	}
	if !r.Has(config.Elicitation, "claude") || r.Has(config.ElicitationResult, "codex") != true || New(nil).Has(config.Elicitation, "x") {
		t.Error("Has")
	}
	var none *Runner
	if res, err := none.RunElicitation(context.Background(), formInput()); res.Decision != Pass || err != nil {
		t.Error("a nil Runner decided")
	}
	missing := config.Hook{Event: config.Elicitation, Command: []string{filepath.Join(dir, "no-such-hook")}}
	if _, err := New([]config.Hook{missing}).RunElicitation(context.Background(), formInput()); err == nil || !strings.Contains(err.Error(), "no-such-hook") {
		t.Errorf("a missing command: %v", err)
	}
}

func TestRunElicitationResult(t *testing.T) {
	user := formInput()
	user.Action, user.Content = question.Accept, json.RawMessage(`{"name":"Ada"}`)
	urlDeclined := urlInput()
	urlDeclined.Action = question.Decline
	urlAccepted := urlInput()
	urlAccepted.Action = question.Accept
	tests := []struct {
		name     string
		body     string
		in       Input
		decision Decision
		action   question.Action
		content  string
		errText  string
	}{
		{"override content", `echo '{"hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"accept","content":{"name":"Bob"}}}'`, user, Answer, question.Accept, `{"name":"Bob"}`, ""},
		{"sees the answer", `grep -q '"action":"accept","content":{"name":"Ada"}' && echo '{"hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"cancel"}}'`, user, Answer, question.Cancel, "", ""},
		{"exit 2 declines", "echo no >&2; exit 2", user, Declined, question.Decline, "", ""},
		{"keeps", "cat >/dev/null", user, Pass, "", "", ""},
		{"url accept refused", `echo '{"hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"accept"}}'`, urlDeclined, Pass, "", "", "may not accept a URL-mode question"},
		{"url accept kept", `echo '{"hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"accept","content":{"x":1}}}'`, urlAccepted, Answer, question.Accept, "", ""},
		{"url accept to decline", `echo '{"hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"decline"}}'`, urlAccepted, Answer, question.Decline, "", ""},
		{"wrong event", `echo '` + accept + `'`, user, Pass, "", "", `hookEventName is "Elicitation"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := script(t, t.TempDir(), "hook", tt.body, config.ElicitationResult)
			res, err := New([]config.Hook{h}).RunElicitationResult(context.Background(), tt.in)
			if res.Decision != tt.decision || res.Action != tt.action || string(res.Content) != tt.content {
				t.Errorf("res = %+v (content %s), err %v", res, res.Content, err)
			}
			if (err != nil) != (tt.errText != "") || err != nil && !strings.Contains(err.Error(), tt.errText) {
				t.Errorf("err = %v, want %q", err, tt.errText)
			}
		})
	}
}
