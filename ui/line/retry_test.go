package line

import (
	"io"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// A prompt the agent answered with the legacy -32042: the line session
// asks the URL's consent, the flow completes in the "browser", and typing
// retry sends the prompt again, which the agent now answers.
func TestLinesLegacyURLThenRetry(t *testing.T) {
	in, feed := io.Pipe()
	out := &testkit.Buffer{}
	rec := &uitest.Recorder{}
	done := make(chan int)
	go func() { done <- Run(Options{Agent: uitest.DemoConfig(t), In: in, Out: out, Opener: rec}) }()
	out.WaitFor(t, "Connected to Demo agent")
	io.WriteString(feed, "/legacy\n")
	out.WaitFor(t, "Type open to open it")
	io.WriteString(feed, "open\n")
	rec.WaitOpened(t, 1, out.String)
	uitest.ApproveFlow(t, rec.Opened()[0])
	out.WaitFor(t, "Type retry to send it again")
	io.WriteString(feed, "retry\n")
	out.WaitFor(t, "Authorized")
	if strings.Contains(out.String(), "-32042") {
		t.Errorf("the -32042 answer was printed as a failure:\n%s", out.String())
	}
	feed.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
}
