package history

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"
	"time"
)

// RunCLI runs `elicit history [list|forget AGENT|clear]`: args are the
// words after "history", dir the state directory (DefaultDir unless a flag
// chose another). It returns the exit status: 0 done, 1 failed, 2 bad usage.
func RunCLI(args []string, stdout, stderr io.Writer, dir string) int {
	fail := func(err error) int {
		fmt.Fprintln(stderr, "elicit:", err)
		return 1
	}
	usage := func() int {
		fmt.Fprintln(stderr, "usage: elicit history [list | forget AGENT | clear]")
		return 2
	}
	switch {
	case len(args) == 0 || len(args) == 1 && args[0] == "list":
		s, err := open(dir)
		if err != nil {
			return fail(err)
		}
		sum, err := s.List()
		if err != nil {
			return fail(err)
		}
		writeSummary(stdout, sum, time.Now())
		return 0
	case len(args) == 2 && args[0] == "forget":
		s, err := open(dir)
		if err != nil {
			return fail(err)
		}
		found, err := s.ForgetAgent(args[1])
		if err != nil {
			return fail(err)
		}
		if !found {
			fmt.Fprintf(stdout, "nothing remembered for %q\n", args[1])
			return 0
		}
		fmt.Fprintf(stdout, "forgot the answers given to %q\n", args[1])
		return 0
	case len(args) == 1 && args[0] == "clear":
		s, err := open(dir)
		if err != nil {
			return fail(err)
		}
		if err := s.Clear(); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "cleared the history in %s\n", dir)
		return 0
	}
	return usage()
}

// writeSummary prints the agents' answers, then the sites by last use.
func writeSummary(w io.Writer, sum Summary, now time.Time) {
	fmt.Fprintf(w, "history in %s\n", sum.Dir)
	if len(sum.Agents) == 0 {
		fmt.Fprintln(w, "\nno remembered answers")
	} else {
		fmt.Fprintln(w, "\nanswers:")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, a := range sum.Agents {
			fmt.Fprintf(tw, "  %s\t%d forms\t%d suggestions\tlast %s\n", a.Agent, a.Forms, a.Suggestions, day(a.Last, now))
		}
		tw.Flush()
	}
	if len(sum.Sites) == 0 {
		fmt.Fprintln(w, "\nno remembered sites")
		return
	}
	fmt.Fprintln(w, "\nsites:")
	names := slices.SortedFunc(maps.Keys(sum.Sites), func(a, b string) int {
		return sum.Sites[b].Last.Compare(sum.Sites[a].Last)
	})
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, n := range names {
		fmt.Fprintf(tw, "  %s\t%s\n", n, Describe(sum.Sites[n], true, now))
	}
	tw.Flush()
}

func day(t, now time.Time) string {
	t = t.In(now.Location())
	if t.Year() != now.Year() {
		return t.Format("2 Jan 2006")
	}
	return t.Format("2 Jan")
}
