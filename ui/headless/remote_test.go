package headless

import (
	"bytes"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/acpserve"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

func init() {
	// remote-hang starts each turn with a word and never ends it.
	uitest.Scripts["remote-hang"] = func(a *uitest.RawAgent) {
		a.Serve(nil, func(m, p map[string]any) {
			switch m["method"] {
			case "session/new":
				a.Reply(m, map[string]any{"sessionId": "s1"})
			case "session/prompt":
				a.Say("s1", "m1", "working")
			}
		})
	}
}

// lockedBuffer is a bytes.Buffer read while Run writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A remote agent's connection dropped mid-turn: -p says so, not that the
// agent exited, and how to take the session up again.
func TestRemoteDropMidTurn(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := &acpserve.Server{NewAgent: func() (acpserve.Agent, error) {
		return acpserve.Command([]string{self, "-test.run=^$"}, append(os.Environ(), "ELICIT_UI_TEST_AGENT=script:remote-hang"))
	}}
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer s.Drop()
	var out, errb lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(Options{Agent: acpconn.Config{Dir: t.TempDir(), Remote: &acpconn.Remote{URL: ts.URL + "/acp"}}, Prompt: "hi", Stdout: &out, Stderr: &errb})
	}()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(out.String(), "working"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the turn never started; stderr:\n%s", errb.String())
		}
	}
	s.Drop()
	select {
	case code := <-done:
		if code != ExitFailed {
			t.Errorf("exit %d", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("-p did not end at the drop; stderr:\n%s", errb.String())
	}
	got := errb.String()
	for _, want := range []string{"elicit: mid-turn, the connection to " + ts.URL + "/acp was lost", "run elicit again with --resume s1"} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "the agent exited") {
		t.Errorf("a drop reported as the agent's exit:\n%s", got)
	}
}
