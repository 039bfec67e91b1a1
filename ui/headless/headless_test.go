package headless

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

func runHeadless(t *testing.T, o Options) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	o.Stdout, o.Stderr = &out, &errb
	if o.Prompt == "" {
		o.Prompt = "hi"
	}
	code = Run(o)
	return code, out.String(), errb.String()
}

// Sign-in in -p: the agent's reason and, for terminal methods, the exact
// command to run.
func TestHeadlessSignInHelp(t *testing.T) {
	cfg := uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t)...)
	code, _, stderr := runHeadless(t, Options{Agent: cfg})
	if code != ExitFailed {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"please sign in", "Log in here: run " + cfg.Argv[0] + " '-test.run=^$' " + uitest.LoginFlag, "login.sh from-copilot", "Use ELICIT_TEST_KEY: set ELICIT_TEST_KEY"} {
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
	cfg := uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t, "ELICIT_TEST_KEY=zq9secret")...)
	code, stdout, stderr := runHeadless(t, Options{Agent: cfg})
	if code != ExitOK || stdout != "hello from a signed-in agent\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}

// An agent that refuses the prompt, not the session, for want of sign-in:
// signed in without asking, the prompt goes again, once.
func TestHeadlessSignInAtPrompt(t *testing.T) {
	cfg := uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t, "ELICIT_UI_TEST_AT=prompt", "ELICIT_TEST_KEY=zq9secret")...)
	code, stdout, stderr := runHeadless(t, Options{Agent: cfg})
	if code != ExitOK || stdout != "hello from a signed-in agent\n" || !strings.Contains(stderr, "signed in with Use ELICIT_TEST_KEY") {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	cfg = uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t, "ELICIT_UI_TEST_AT=prompt", "ELICIT_TEST_KEY=wrong")...)
	code, stdout, stderr = runHeadless(t, Options{Agent: cfg})
	if code != ExitFailed || stdout != "" || !strings.Contains(stderr, "did not work: ELICIT_TEST_KEY is not set") || !strings.Contains(stderr, "Use ELICIT_TEST_KEY: set ELICIT_TEST_KEY") {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}

func TestHeadlessModeAndModel(t *testing.T) {
	code, stdout, stderr := runHeadless(t, Options{Agent: uitest.ScriptConfig(t, "settings"), Mode: "Code", Model: "m2"})
	if code != ExitOK || stdout != "mode=code model=m2\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	code, _, stderr = runHeadless(t, Options{Agent: uitest.ScriptConfig(t, "settings"), Mode: "yolo"})
	if code != ExitFailed || !strings.Contains(stderr, "--mode yolo: the agent offers ask, code") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
}

// Messages with different ids are separate paragraphs; --resume prints
// none of the replayed history; stray stdout is reported.
func TestHeadlessMessagesAndResume(t *testing.T) {
	code, stdout, stderr := runHeadless(t, Options{Agent: uitest.ScriptConfig(t, "sessions"), Resume: true})
	if code != ExitOK || stdout != "first message\n\nsecond message\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "agent output: Please visit https://example.com/auth") {
		t.Errorf("stderr lacks the agent's stray line:\n%s", stderr)
	}
}

// An agent that can only load: its replay of the history comes before
// its answer, and none of it is printed, however the events are ordered.
func TestHeadlessLoadPrintsNoHistory(t *testing.T) {
	for range 5 {
		code, stdout, stderr := runHeadless(t, Options{Agent: uitest.ScriptConfig(t, "sessions", "ELICIT_UI_TEST_NO_RESUME=1"), Resume: true})
		if code != ExitOK || stdout != "first message\n\nsecond message\n" {
			t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
		}
	}
}

// With nothing to resume, -p fails instead of sending its prompt to a
// new session.
func TestHeadlessNothingToResume(t *testing.T) {
	code, stdout, stderr := runHeadless(t, Options{Agent: uitest.ScriptConfig(t, "settings"), Resume: true})
	if code != ExitFailed || stdout != "" || !strings.Contains(stderr, "elicit: nothing to resume: the agent cannot resume sessions (--resume, -c)") {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}

// A question asked while the agent handles session/new is answered by the
// same rules (--answers) before the session exists.
func TestHeadlessSetupQuestion(t *testing.T) {
	code, stdout, stderr := runHeadless(t, Options{Agent: uitest.ScriptConfig(t, "setup"), Answers: map[string]json.RawMessage{"workspace": json.RawMessage(`"blue"`)}})
	if code != ExitOK || stdout != "in ws-blue\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}

func TestSessionsCommandLists(t *testing.T) {
	var out, errb bytes.Buffer
	code := RunSessions(SessionsOptions{Agent: uitest.ScriptConfig(t, "sessions"), Stdout: &out, Stderr: &errb})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if code != ExitOK || len(lines) != 3 || !strings.HasPrefix(lines[1], "s-old ") || !strings.Contains(lines[1], "fix the parser") || !strings.HasPrefix(lines[2], "s-older") {
		t.Fatalf("exit %d:\n%s\n%s", code, out.String(), errb.String())
	}
}
