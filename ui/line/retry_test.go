package line

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/session"
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
	if strings.Contains(out.String(), "ctrl+g") {
		t.Errorf("the line session named a full screen's key:\n%s", out.String())
	}
	feed.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
}

// A retry due while a turn runs waits for its end. When the turn fails
// instead (the agent dies: the failed turn comes first, then the exit),
// or the agent exits, the session says the prompt was not sent again,
// and sends nothing: it never drops it without a word.
func TestLinesRetryTheTurnFailed(t *testing.T) {
	for _, c := range []struct {
		end  acpconn.Event
		want string
	}{
		{acpconn.TurnEnded{Err: errors.New("session/prompt: the agent exited (killed by SIGKILL)")}, "Not sent again (the turn failed): look it up"},
		{acpconn.AgentExited{Exit: acpconn.ExitInfo{Code: 1}}, "Not sent again (the agent exited): look it up"},
	} {
		var out bytes.Buffer
		l := &lineSession{o: Options{Out: &out}, core: session.New(nil, session.Policy{Person: true}, nil), tools: map[string]string{}, running: true}
		l.changes(session.Changes{Send: "look it up"}) // sending would need a connection: there is none
		l.apply(c.end)
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("%T: no %q in:\n%s", c.end, c.want, out.String())
		}
	}
}
