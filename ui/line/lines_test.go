package line

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// The accessible session asks the same forms as line prompts: typed
// answers, then the review, and the agent receives typed content. Empty
// lines at the prompt do not quit; end of input does.
func TestAccessibleSessionForm(t *testing.T) {
	in, feed := io.Pipe()
	out := &testkit.Buffer{}
	done := make(chan int)
	go func() {
		done <- Run(Options{Agent: uitest.DemoConfig(t), In: in, Out: out, Opener: &uitest.Recorder{}})
	}()
	say := func(lines ...string) {
		for _, l := range lines {
			if _, err := io.WriteString(feed, l+"\n"); err != nil {
				t.Fatal(err)
			}
		}
	}
	wait := func(s string) {
		t.Helper()
		waitFor(t, func() bool { return strings.Contains(out.String(), s) }, s, out.String)
	}
	wait("Connected to Demo agent")
	say("", "/form numbers")
	wait("Quantity (required):")
	say("5")
	wait("Rating (required):")
	say("4.5", "", "")
	wait("Enter a number between 1 and 4")
	say("1")
	wait(`"quantity": 5`)
	wait(`"rating": 4.5`)
	feed.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
}

// waitFor polls cond until it holds, failing with what show returns.
func waitFor(t *testing.T, cond func() bool, what string, show func() string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %q; output:\n%s", what, show())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The accessible session asks URL consent as lines: the analysis is shown,
// and nothing opens until "open" is typed.
func TestAccessibleSessionURLConsent(t *testing.T) {
	in, feed := io.Pipe()
	out := &testkit.Buffer{}
	rec := &uitest.Recorder{}
	done := make(chan int)
	go func() { done <- Run(Options{Agent: uitest.DemoConfig(t), In: in, Out: out, Opener: rec}) }()
	wait := func(s string) {
		t.Helper()
		waitFor(t, func() bool { return strings.Contains(out.String(), s) }, s, out.String)
	}
	wait("Connected to Demo agent")
	io.WriteString(feed, "/url\n")
	wait("Type open to open it")
	if !strings.Contains(out.String(), "Site      127.0.0.1") || len(rec.Opened()) != 0 {
		t.Fatalf("opened %v before consent; output:\n%s", rec.Opened(), out.String())
	}
	io.WriteString(feed, "open\n")
	waitFor(t, func() bool { return len(rec.Opened()) == 1 }, "the browser", out.String)
	io.WriteString(feed, "no\n") // the second flow
	wait("You chose")
	feed.Close()
	<-done
}
