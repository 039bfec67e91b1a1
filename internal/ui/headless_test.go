package ui

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

func runHeadless(t *testing.T, o HeadlessOptions) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	o.Stdout, o.Stderr = &out, &errb
	if o.Prompt == "" {
		o.Prompt = "hi"
	}
	code = RunHeadless(o)
	return code, out.String(), errb.String()
}

// Sign-in in -p: the agent's reason and, for terminal methods, the exact
// command to run.
func TestHeadlessSignInHelp(t *testing.T) {
	cfg := scriptConfig(t, "signin", signInEnv(t)...)
	code, _, stderr := runHeadless(t, HeadlessOptions{Agent: cfg})
	if code != ExitFailed {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"please sign in", "Log in here: run  " + cfg.Argv[0] + " " + loginFlag, "login.sh from-copilot", "Use ELICIT_TEST_KEY: set ELICIT_TEST_KEY"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "interactively once") {
		t.Errorf("the old advice:\n%s", stderr)
	}
}

// An env_var method whose variables are set is used without asking.
func TestHeadlessEnvVarSignIn(t *testing.T) {
	cfg := scriptConfig(t, "signin", signInEnv(t, "ELICIT_TEST_KEY=zq9secret")...)
	code, stdout, stderr := runHeadless(t, HeadlessOptions{Agent: cfg})
	if code != ExitOK || stdout != "hello from a signed-in agent\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}

func TestHeadlessModeAndModel(t *testing.T) {
	code, stdout, stderr := runHeadless(t, HeadlessOptions{Agent: scriptConfig(t, "settings"), Mode: "Code", Model: "m2"})
	if code != ExitOK || stdout != "mode=code model=m2\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	code, _, stderr = runHeadless(t, HeadlessOptions{Agent: scriptConfig(t, "settings"), Mode: "yolo"})
	if code != ExitFailed || !strings.Contains(stderr, "--mode yolo: the agent offers ask, code") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
}

// Messages with different ids are separate paragraphs; --resume prints
// none of the replayed history; stray stdout is reported.
func TestHeadlessMessagesAndResume(t *testing.T) {
	code, stdout, stderr := runHeadless(t, HeadlessOptions{Agent: scriptConfig(t, "sessions"), Resume: true})
	if code != ExitOK || stdout != "first message\n\nsecond message\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "agent output: Please visit https://example.com/auth") {
		t.Errorf("stderr lacks the agent's stray line:\n%s", stderr)
	}
}

// A question asked while the agent handles session/new is answered by the
// same rules (--answers) before the session exists.
func TestHeadlessSetupQuestion(t *testing.T) {
	code, stdout, stderr := runHeadless(t, HeadlessOptions{Agent: scriptConfig(t, "setup"), Answers: map[string]json.RawMessage{"workspace": json.RawMessage(`"blue"`)}})
	if code != ExitOK || stdout != "in ws-blue\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}

func TestSessionsCommandLists(t *testing.T) {
	var out, errb bytes.Buffer
	code := RunSessions(SessionsOptions{Agent: scriptConfig(t, "sessions"), Stdout: &out, Stderr: &errb})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if code != ExitOK || len(lines) != 3 || !strings.HasPrefix(lines[1], "s-old ") || !strings.Contains(lines[1], "fix the parser") || !strings.HasPrefix(lines[2], "s-older") {
		t.Fatalf("exit %d:\n%s\n%s", code, out.String(), errb.String())
	}
}

// The accessible session offers the methods with the agent's reason; an
// api-key that fails says why and offers them again.
func TestLinesSignInWithKey(t *testing.T) {
	out := &syncOut{}
	pr, pw := io.Pipe()
	go func() {
		// Each answer is typed once its question is on screen (lines typed
		// ahead of a question are ignored by design).
		// A text asked twice is waited for the second time it shows.
		times := map[string]int{}
		for _, step := range []struct{ after, line string }{
			{"Method number (0 quits): ", "4"}, {"API key (it is echoed", "wrong"},
			{"Method number (0 quits): ", "4"}, {"API key (it is echoed", "sekret"}, {"Connected to", "hi"},
		} {
			times[step.after]++
			for strings.Count(out.String(), step.after) < times[step.after] {
				time.Sleep(10 * time.Millisecond)
			}
			io.WriteString(pw, step.line+"\n")
		}
		for !out.seen("hello from a signed-in agent") {
			time.Sleep(10 * time.Millisecond)
		}
		pw.Close()
	}()
	code := RunLines(LinesOptions{Agent: scriptConfig(t, "signin", signInEnv(t)...), In: pr, Out: out})
	got := out.String()
	for _, want := range []string{"please sign in", "Sign-in did not succeed: Gemini API key is missing", "Connected to scripted", "hello from a signed-in agent"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
}

// syncOut is an output buffer the test reads while the session writes.
type syncOut struct {
	mu   sync.Mutex
	b    bytes.Buffer
	from int // seen consumes what it matched
}

func (s *syncOut) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncOut) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// seen reports whether text appeared since the last match.
func (s *syncOut) seen(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := strings.Index(s.b.String()[s.from:], text)
	if i < 0 {
		return false
	}
	s.from += i + len(text)
	return true
}

// The accessible session asks a question the agent asks while it handles
// session/new, before the session exists.
func TestLinesSetupQuestion(t *testing.T) {
	out := &syncOut{}
	pr, pw := io.Pipe()
	go func() {
		for _, step := range []struct{ after, line string }{{"workspace (required)", "blue"}, {"Enter a number between 1 and 4", "1"}, {"Connected to", "hi"}} {
			for !out.seen(step.after) {
				time.Sleep(10 * time.Millisecond)
			}
			io.WriteString(pw, step.line+"\n")
		}
		for !out.seen("in ws-blue") {
			time.Sleep(10 * time.Millisecond)
		}
		pw.Close()
	}()
	code := RunLines(LinesOptions{Agent: scriptConfig(t, "setup"), In: pr, Out: out})
	if got := out.String(); code != 0 || !strings.Contains(got, "in ws-blue") {
		t.Fatalf("exit %d:\n%s", code, got)
	}
}
