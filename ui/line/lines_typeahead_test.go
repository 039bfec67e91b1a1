package line

import (
	"io"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// linesRun is an accessible session over a pipe, with a recording browser.
type linesRun struct {
	t    *testing.T
	feed *io.PipeWriter
	out  *testkit.Buffer
	rec  *uitest.Recorder
	done chan int
}

func startLines(t *testing.T) *linesRun {
	in, feed := io.Pipe()
	r := &linesRun{t: t, feed: feed, out: &testkit.Buffer{}, rec: &uitest.Recorder{}, done: make(chan int, 1)}
	go func() { r.done <- Run(Options{Agent: uitest.DemoConfig(t), In: in, Out: r.out, Opener: r.rec}) }()
	t.Cleanup(func() {
		feed.Close()
		<-r.done
	})
	r.wait("Connected to Demo agent")
	return r
}

// say writes text as typed: the whole of it at once, so that every line
// in it is read before the agent can answer the first.
func (r *linesRun) say(text string) {
	r.t.Helper()
	if _, err := io.WriteString(r.feed, text); err != nil {
		r.t.Fatal(err)
	}
}

func (r *linesRun) wait(s string) {
	r.t.Helper()
	r.out.WaitFor(r.t, s)
}

// waitAfter waits until s is in the output after the last mark.
func (r *linesRun) waitAfter(mark, s string) {
	r.t.Helper()
	r.out.WaitUntil(r.t, mark+" … "+s, func(out string) bool {
		i := strings.LastIndex(out, mark)
		return i >= 0 && strings.Contains(out[i:], s)
	})
}

// waitCount waits until s is in the output n times.
func (r *linesRun) waitCount(s string, n int) {
	r.t.Helper()
	r.out.WaitCount(r.t, s, n)
}

// Lines typed during a turn, before its question appears, are discarded
// (and counted) for each question: they neither open a URL nor grant a
// permission, even when they are the exact answers.
func TestAccessibleTypeAheadDiscarded(t *testing.T) {
	t.Run("url", func(t *testing.T) {
		r := startLines(t)
		r.say("/url\nopen\nyes\n1\nopen\n")
		r.wait("(4 lines typed before this question appeared were ignored)")
		r.wait("Type open to open it")
		r.say("no\n")
		r.waitAfter("This page's flow never completes", "Type open to open it") // the second flow
		r.say("\n")
		r.wait("You chose **cancel**")
		if got := r.rec.Opened(); len(got) != 0 {
			t.Errorf("opened %q", got)
		}
		if !strings.Contains(r.out.String(), "You chose **decline**") {
			t.Errorf("the first flow was not declined:\n%s", r.out.String())
		}
	})
	t.Run("permission", func(t *testing.T) {
		r := startLines(t)
		r.say("hello\n1\nAllow once\nallow always\n")
		r.wait("(3 lines typed before this question appeared were ignored)")
		r.wait("Type an option's number or name (Enter alone cancels): ") // what the empty line does
		r.say("\n")
		r.wait("the permission request was cancelled")
		if out := r.out.String(); strings.Contains(out, "you allowed") {
			t.Errorf("a typed-ahead line granted the edit:\n%s", out)
		}
	})
	t.Run("risky", func(t *testing.T) {
		r := startLines(t)
		r.say("/risky\nopen\nevil.example\n1\nyes\n")
		r.wait("(4 lines typed before this question appeared were ignored)")
		r.wait("Type ")
		if got := r.rec.Opened(); len(got) != 0 {
			t.Errorf("opened %q", got)
		}
		if out := r.out.String(); strings.Contains(out, "This URL has a high-severity warning") {
			t.Errorf("a typed-ahead line went past the first question:\n%s", out)
		}
	})
}

// A line of prose typed after a question appeared is not an answer: it is
// asked again, and three such lines cancel it. A high-severity URL needs
// its site's name typed out after "open": yes is not enough. Each line is
// typed once its question is asked (again): a line typed before is
// ignored by design, and would not be the answer this tests.
func TestAccessibleProseIsNotAnAnswer(t *testing.T) {
	const (
		perm = "Type an option's number or name"
		url  = "Type open to open it"
		site = "Type the site name (evil.example) to open it anyway"
	)
	t.Run("permission", func(t *testing.T) {
		r := startLines(t)
		r.say("hello\n")
		r.wait(perm)
		r.say("that is really annoying, allow once please\n")
		r.wait("That is not one of the options.")
		r.waitCount(perm, 2)
		r.say("1st\n")
		r.waitCount("That is not one of the options.", 2)
		r.waitCount(perm, 3)
		r.say("yes\n")
		r.wait("the permission request was cancelled")
		if out := r.out.String(); strings.Contains(out, "you allowed") {
			t.Errorf("prose granted the edit:\n%s", out)
		}
	})
	t.Run("url", func(t *testing.T) {
		r := startLines(t)
		r.say("/url\n")
		r.wait(url)
		r.say("open it now please\n")
		r.wait("Type open, no, or press Enter.")
		r.waitCount(url, 2)
		r.say("o\n")
		r.waitCount("Type open, no, or press Enter.", 2)
		r.waitCount(url, 3)
		r.say("\n")
		r.waitAfter("This page's flow never completes", url) // the second flow
		r.say("\n")
		r.waitCount("You chose **cancel**", 2)
		if got := r.rec.Opened(); len(got) != 0 {
			t.Errorf("prose opened %q", got)
		}
	})
	t.Run("risky", func(t *testing.T) {
		r := startLines(t)
		r.say("/risky\n")
		r.wait(url)
		r.say("open\n")
		r.wait(site)
		r.say("yes\n")
		r.wait("Type evil.example exactly, or press Enter.")
		r.waitCount(site, 2)
		r.say("google.com\n")
		r.waitCount("Type evil.example exactly, or press Enter.", 2)
		r.waitCount(site, 3)
		r.say("\n")
		r.wait(perm) // the rm -rf ~ permission
		r.say("\n")
		r.wait("You chose **cancel**")
		if got := r.rec.Opened(); len(got) != 0 {
			t.Errorf("opened %q", got)
		}
	})
}
