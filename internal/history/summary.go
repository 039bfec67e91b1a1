package history

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"
	"time"
)

// WriteSummary prints what List found: the agents' answers, then the
// sites by last use (`elicit history` is this).
func WriteSummary(w io.Writer, sum Summary, now time.Time) {
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
