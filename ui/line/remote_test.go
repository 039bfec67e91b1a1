package line

import (
	"io"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// A remote agent's dropped connection ends the line session (it does not
// reconnect, as the full screen does) with what happened and how to take
// the session up again, not as if the agent had exited.
func TestRemoteDropSaysHowToResume(t *testing.T) {
	s, url := uitest.ServeScript(t, "bare")
	out := &testkit.Buffer{}
	pr, pw := io.Pipe()
	defer pw.Close()
	done := make(chan int, 1)
	go func() {
		done <- Run(Options{Agent: acpconn.Config{Dir: t.TempDir(), Remote: &acpconn.Remote{URL: url}}, In: pr, Out: out})
	}()
	out.WaitFor(t, "Connected to")
	s.Drop()
	out.WaitFor(t, "run elicit again")
	if code := <-done; code != 1 {
		t.Errorf("exit %d", code)
	}
	got := out.String()
	for _, want := range []string{"The agent's connection ended: the connection to " + url + " was lost", "run elicit again with --resume s1"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "The agent exited") {
		t.Errorf("a drop reported as the agent's exit:\n%s", got)
	}
}
