package line

import (
	"io"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// The accessible session offers the methods with the agent's reason; an
// api-key that fails says why and offers them again.
func TestLinesSignInWithKey(t *testing.T) {
	out, pw, done := startRun(t, Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t)...)})
	answer(t, out, pw, []step{
		{"Method number (0, or Enter alone, quits): ", "4"}, {"API key (it is echoed", "wrong"},
		{"Method number (0, or Enter alone, quits): ", "4"}, {"API key (it is echoed", "sekret"}, {"Connected to", "hi"},
	})
	out.WaitFor(t, "hello from a signed-in agent")
	pw.Close()
	code := <-done
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

// startRun runs a line session with o over a pipe the test types into;
// done gets its exit status once the input ends (the pipe is closed at
// the end of the test at the latest).
func startRun(t *testing.T, o Options) (out *testkit.Buffer, pw *io.PipeWriter, done <-chan int) {
	out = &testkit.Buffer{}
	pr, pw := io.Pipe()
	o.In, o.Out = pr, out
	ch := make(chan int, 1)
	go func() { ch <- Run(o) }()
	t.Cleanup(func() { pw.Close() })
	return out, pw, ch
}

// step is a line typed once a text is in the output.
type step struct{ after, line string }

// answer types each step's line once its text is in the output, each
// answer once its question was asked (lines typed ahead of a question are
// ignored by design); a text asked twice is waited for the second time it
// shows.
func answer(t *testing.T, out *testkit.Buffer, w io.Writer, steps []step) {
	t.Helper()
	times := map[string]int{}
	for _, st := range steps {
		times[st.after]++
		out.WaitCount(t, st.after, times[st.after])
		if _, err := io.WriteString(w, st.line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
}

// The accessible session asks a question the agent asks while it handles
// session/new, before the session exists.
func TestLinesSetupQuestion(t *testing.T) {
	out, pw, done := startRun(t, Options{Agent: uitest.ScriptConfig(t, "setup")})
	answer(t, out, pw, []step{{"workspace (required)", "blue"}, {"Enter a number between 1 and 4", "1"}, {"Connected to", "hi"}})
	out.WaitFor(t, "in ws-blue")
	pw.Close()
	if code, got := <-done, out.String(); code != 0 || !strings.Contains(got, "in ws-blue") {
		t.Fatalf("exit %d:\n%s", code, got)
	}
}
