package line

import (
	"io"
	"os"
	"strings"
	"testing"

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
		out.WaitFor(t, s)
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

// The accessible session asks URL consent as lines: the analysis is shown,
// and nothing opens until "open" is typed.
func TestAccessibleSessionURLConsent(t *testing.T) {
	in, feed := io.Pipe()
	out := &testkit.Buffer{}
	rec := &uitest.Recorder{}
	done := make(chan int)
	go func() { done <- Run(Options{Agent: uitest.DemoConfig(t), In: in, Out: out, Opener: rec}) }()
	out.WaitFor(t, "Connected to Demo agent")
	io.WriteString(feed, "/url\n")
	out.WaitFor(t, "Type open to open it")
	if !strings.Contains(out.String(), "Site      127.0.0.1") || len(rec.Opened()) != 0 {
		t.Fatalf("opened %v before consent; output:\n%s", rec.Opened(), out.String())
	}
	io.WriteString(feed, "open\n")
	rec.WaitOpened(t, 1, out.String)
	// The second flow: "no" is typed once its question is asked (a line
	// typed before is ignored by design).
	out.WaitUntil(t, "the second flow's question", func(s string) bool {
		i := strings.LastIndex(s, "This page's flow never completes")
		return i >= 0 && strings.Contains(s[i:], "Type open to open it")
	})
	io.WriteString(feed, "no\n")
	out.WaitFor(t, "You chose **decline**")
	if got := rec.Opened(); len(got) != 1 {
		t.Errorf("opened %q", got)
	}
	feed.Close()
	<-done
}

// Quitting at the prompt (Ctrl+D, or Ctrl+C there) ends the prompt's line:
// the shell's own prompt comes on a line of its own, not after "> ".
func TestQuitAtThePromptEndsTheLine(t *testing.T) {
	for _, how := range []string{"ctrl+d", "ctrl+c"} {
		t.Run(how, func(t *testing.T) {
			in, feed := io.Pipe()
			defer feed.Close()
			out := &testkit.Buffer{}
			sig := make(chan os.Signal, 1)
			done := make(chan int, 1)
			go func() { done <- Run(Options{Agent: uitest.DemoConfig(t), In: in, Out: out, Signals: sig}) }()
			out.WaitFor(t, "Connected to Demo agent")
			if how == "ctrl+d" {
				feed.Close()
			} else {
				sig <- os.Interrupt
			}
			if code := testkit.Recv(t, done, "the session's end"); code != 0 {
				t.Fatalf("exit status %d, want 0", code)
			}
			if s := out.String(); !strings.HasSuffix(s, "> \n") {
				t.Fatalf("the output ends %q, want the prompt's line ended", s[max(0, len(s)-40):])
			}
		})
	}
}
