package line

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

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
			{"Method number (0, or Enter alone, quits): ", "4"}, {"API key (it is echoed", "wrong"},
			{"Method number (0, or Enter alone, quits): ", "4"}, {"API key (it is echoed", "sekret"}, {"Connected to", "hi"},
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
	code := Run(Options{Agent: uitest.ScriptConfig(t, "signin", uitest.SignInEnv(t)...), In: pr, Out: out})
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
	code := Run(Options{Agent: uitest.ScriptConfig(t, "setup"), In: pr, Out: out})
	if got := out.String(); code != 0 || !strings.Contains(got, "in ws-blue") {
		t.Fatalf("exit %d:\n%s", code, got)
	}
}
