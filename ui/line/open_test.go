package line

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// runLines runs a line session with o, types prompt once it is connected,
// and ends the input once until appears; it returns the exit status and
// everything printed.
func runLines(t *testing.T, o Options, prompt, until string) (int, string) {
	t.Helper()
	out := &testkit.Buffer{}
	pr, pw := io.Pipe()
	o.In = pr
	if _, slow := o.Out.(slowOut); slow {
		o.Out = slowOut{out}
	} else {
		o.Out = out
	}
	done := make(chan int, 1)
	go func() { done <- Run(o) }()
	defer pw.Close()
	out.WaitFor(t, "Connected to")
	io.WriteString(pw, prompt+"\n")
	out.WaitFor(t, until)
	pw.Close()
	return <-done, out.String()
}

// slowOut is a terminal that takes a while to take each write (a load the
// test puts on the session, not a wait).
type slowOut struct{ *testkit.Buffer }

func (s slowOut) Write(p []byte) (int, error) {
	time.Sleep(3 * time.Millisecond)
	return s.Buffer.Write(p)
}

// --mode and --model are set once the session opens, by name or id, and
// the session says so; a value the agent does not offer is a note that
// lists what it offers, and the session goes on.
func TestLinesModeAndModel(t *testing.T) {
	code, got := runLines(t, Options{Agent: uitest.ScriptConfig(t, "settings"), Mode: "Code", Model: "m2"}, "hi", "mode=code model=m2")
	if code != 0 || !strings.Contains(got, "Mode set to Code.") || !strings.Contains(got, "Model set to Model Two.") {
		t.Errorf("exit %d:\n%s", code, got)
	}
	code, got = runLines(t, Options{Agent: uitest.ScriptConfig(t, "settings"), Mode: "yolo"}, "hi", "mode=ask model=m1")
	if code != 0 || !strings.Contains(got, "Note: --mode yolo: the agent offers ask, code") {
		t.Errorf("exit %d:\n%s", code, got)
	}
}

// -c takes up the most recent session, and its replayed history is
// printed before the prompt: what the user typed after "> ", the reply
// below.
// (The replay comes before the agent's answer, and all of it is shown
// before the session says it resumed, however the events are ordered: a
// slow terminal leaves replayed events waiting when the answer comes.)
func TestLinesContinue(t *testing.T) {
	for range 4 {
		code, got := runLines(t, Options{Agent: uitest.ScriptConfig(t, "sessions"), Resume: true, Out: slowOut{}}, "go on", "second message")
		want := "The session's history:\n> why does it fail\nbecause of the comma\nResumed session s-old; its history is above.\n"
		if code != 0 || !strings.Contains(got, want) {
			t.Fatalf("exit %d; want %q in:\n%s", code, want, got)
		}
	}
}

// --resume ID takes up that session.
func TestLinesResumeID(t *testing.T) {
	code, got := runLines(t, Options{Agent: uitest.ScriptConfig(t, "sessions"), Resume: true, ResumeID: "s-older"}, "go on", "second message")
	if code != 0 || !strings.Contains(got, "Resumed session s-older;") {
		t.Errorf("exit %d:\n%s", code, got)
	}
}

// With nothing to resume (an agent that cannot), the session says why and
// starts a new one.
func TestLinesNothingToResume(t *testing.T) {
	code, got := runLines(t, Options{Agent: uitest.ScriptConfig(t, "settings"), Resume: true}, "hi", "mode=ask")
	if code != 0 || !strings.Contains(got, "Nothing to resume (the agent cannot resume sessions): this is a new session.") {
		t.Errorf("exit %d:\n%s", code, got)
	}
}

// The line session signs in without asking where the environment allows
// it (an env_var method's variables, --api-key-env's key), as -p does.
func TestLinesSignInWithoutAsking(t *testing.T) {
	code, got := runLines(t, Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t, "ELICIT_TEST_KEY=zq9secret")...)}, "hi", "hello from a signed-in agent")
	if code != 0 || !strings.Contains(got, "Signed in with Use ELICIT_TEST_KEY (its variables are set).") || strings.Contains(got, "Method number") {
		t.Errorf("env_var: exit %d:\n%s", code, got)
	}
	code, got = runLines(t, Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t, "GEM_KEY=sekret")...), APIKeyEnv: "GEM_KEY"}, "hi", "hello from a signed-in agent")
	if code != 0 || !strings.Contains(got, "Signed in with Gemini API key (the key in GEM_KEY).") || strings.Contains(got, "sekret") {
		t.Errorf("api key: exit %d:\n%s", code, got)
	}
}

// An agent that refuses the prompt, not the session, for want of sign-in:
// the session signs in without asking where it can, else offers the
// methods, and sends the prompt again once signed in.
func TestLinesSignInAtPrompt(t *testing.T) {
	code, got := runLines(t, Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t, "ELICIT_UI_TEST_AT=prompt", "ELICIT_TEST_KEY=zq9secret")...)},
		"hi", "hello from a signed-in agent")
	if code != 0 || !strings.Contains(got, "Signed in with Use ELICIT_TEST_KEY (its variables are set).\nSigned in; sending the prompt again.") {
		t.Errorf("without asking: exit %d:\n%s", code, got)
	}

	out, pw, done := startRun(t, Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t, "ELICIT_UI_TEST_AT=prompt")...)})
	answer(t, out, pw, []step{{"Connected to", "hi"}, {"Method number (0, or Enter alone, quits): ", "4"}, {"API key (it is echoed", "sekret"}})
	out.WaitFor(t, "hello from a signed-in agent")
	pw.Close()
	code = <-done
	got = out.String()
	if code != 0 || !strings.Contains(got, "the agent requires sign-in: Authentication required") || !strings.Contains(got, "Signed in; sending the prompt again.") {
		t.Errorf("asked: exit %d:\n%s", code, got)
	}
}
