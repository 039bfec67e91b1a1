package line

import (
	"io"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/acpserve"
)

// A remote agent's dropped connection ends the line session (it does not
// reconnect, as the full screen does) with what happened and how to take
// the session up again, not as if the agent had exited.
func TestRemoteDropSaysHowToResume(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := &acpserve.Server{NewAgent: func() (acpserve.Agent, error) {
		return acpserve.Command([]string{self, "-test.run=^$"}, append(os.Environ(), "ELICIT_UI_TEST_AGENT=script:bare"))
	}}
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer s.Drop()
	out := &syncOut{}
	pr, pw := io.Pipe()
	defer pw.Close()
	done := make(chan int, 1)
	go func() {
		done <- Run(Options{Agent: acpconn.Config{Dir: t.TempDir(), Remote: &acpconn.Remote{URL: ts.URL + "/acp"}}, In: pr, Out: out})
	}()
	waitFor(t, func() bool { return strings.Contains(out.String(), "Connected to") }, "Connected to", out.String)
	s.Drop()
	waitFor(t, func() bool { return strings.Contains(out.String(), "run elicit again") }, "the resume hint", out.String)
	if code := <-done; code != 1 {
		t.Errorf("exit %d", code)
	}
	got := out.String()
	for _, want := range []string{"The agent's connection ended: the connection to " + ts.URL + "/acp was lost", "run elicit again with --resume s1"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "The agent exited") {
		t.Errorf("a drop reported as the agent's exit:\n%s", got)
	}
}
