package line

import (
	"io"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// The accessible session keeps the agents' messages apart as -p does:
// a paragraph wherever the message id changes (to and from none), and
// after a tool call when the agent sends no ids; the command's output
// (the _meta terminal extension) is read out as it comes.
func TestAccessibleMessageBreaks(t *testing.T) {
	for _, c := range []struct {
		agent, answer string
		want          []string
	}{
		{"claude", "1", []string{"Calling Bash.\n", "line 1\nline 2\n[exit status 0]\n", "\ndone: Bash: line 1\n\n" + uitest.WarningText + "\n"}},
		{"codex", "", []string{"Calling exec_command.\n", "line 1\nline 2\n", "[exit status 3]\n", "\n\ndone: exec_command: line 1\n"}},
		// A late update to a finished call is no boundary (issue 35, item 7);
		// a user message between two replies is (item 10).
		{"codex-late", "", []string{"[exit status 3]\n", "\n\n" + uitest.LateText + "\n"}},
		{"noids-user", "", []string{"First reply.\n\nSecond reply.\n"}},
	} {
		out := &testkit.Buffer{}
		pr, pw := io.Pipe()
		done := make(chan int)
		go func() { done <- Run(Options{Agent: uitest.ScriptConfig(t, c.agent), In: pr, Out: out}) }()
		out.WaitFor(t, "Connected to")
		io.WriteString(pw, "run it\n")
		if c.answer != "" {
			// The question, not its options: a line typed before the
			// question is asked is ignored by design.
			out.WaitFor(t, "Type an option's number or name")
			io.WriteString(pw, c.answer+"\n")
		}
		out.WaitCount(t, "> ", 2) // the turn's end
		pw.Close()
		<-done
		got := out.String()
		at := 0
		for _, w := range c.want {
			i := strings.Index(got[at:], w)
			if i < 0 {
				t.Fatalf("%s: output lacks %q after byte %d:\n%s", c.agent, w, at, got)
			}
			at += i + len(w)
		}
	}
}
