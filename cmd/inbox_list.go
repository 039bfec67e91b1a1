package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// newInboxListCommand is `elicit inbox list`.
func newInboxListCommand(a *app, o *inboxOptions) *cobra.Command {
	var asJSON, count bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the questions your sessions wait on",
		Long: "Lists every question waiting in your elicit sessions (and the --attach hosts'), oldest first: its id (for elicit " +
			"inbox answer), kind (form, url, permission, choice), the agent that asks, how long it has waited, the session's " +
			"directory and the first line of its message. --json prints one object a line (id, kind, agent, cwd, title, " +
			"message, waiting_since); --count prints how many wait, cheaply enough for a status line. A session that cannot " +
			"be read is named on stderr, and the exit status is 1.",
		Example: `
elicit inbox list
elicit inbox list --json | jq -r 'select(.kind == "form") | .id'
elicit inbox list --count`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && count {
				return usagef("--json and --count: give one")
			}
			io, err := o.options()
			if err != nil {
				return err
			}
			return a.exit(a.inboxList(io, asJSON, count))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "one JSON object a line")
	cmd.Flags().BoolVar(&count, "count", false, "only how many questions wait")
	return cmd
}

// inboxItem is one line of `elicit inbox list --json`.
type inboxItem struct {
	ID           string    `json:"id"`
	Kind         string    `json:"kind"`
	Agent        string    `json:"agent"`
	Cwd          string    `json:"cwd"`
	Title        string    `json:"title"`
	Message      string    `json:"message"`
	Tool         string    `json:"tool,omitempty"`
	WaitingSince time.Time `json:"waiting_since"`
}

// inboxList lists, and returns the exit status.
func (a *app) inboxList(o inbox.Options, asJSON, count bool) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, errOut := textOut(a.stdout), textOut(a.stderr)
	var problems []inbox.Problem
	if count {
		var n int
		n, problems = inbox.Count(ctx, o)
		fmt.Fprintln(out, n)
	} else {
		var items []inbox.Item
		items, problems = inbox.List(ctx, o)
		if asJSON {
			writeInboxJSON(out, items)
		} else {
			writeInboxTable(out, items, time.Now())
		}
	}
	for _, p := range problems {
		fmt.Fprintln(errOut, "elicit inbox:", sanitize.Line(p.Error()))
	}
	if ctx.Err() != nil && len(problems) > 0 {
		return exitInterrupted
	}
	if len(problems) > 0 {
		return exitFailed
	}
	return exitOK
}

func writeInboxJSON(w io.Writer, items []inbox.Item) {
	enc := json.NewEncoder(w)
	for _, it := range items {
		enc.Encode(inboxItem{ID: it.ID, Kind: it.Kind, Agent: it.Agent, Cwd: it.Cwd, Title: it.Title, Message: it.Message,
			Tool: it.Tool, WaitingSince: it.WaitingSince.UTC()})
	}
}

// writeInboxTable prints the items as a table: a line each, the message
// last (cut to keep the line short).
func writeInboxTable(w io.Writer, items []inbox.Item, now time.Time) {
	if len(items) == 0 {
		fmt.Fprintln(w, "No question is waiting.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tAGENT\tWAITING\tDIRECTORY\tMESSAGE")
	for _, it := range items {
		msg := it.Message
		if it.Kind == "permission" && it.Tool != "" {
			msg = it.Tool
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", sanitize.Line(it.ID), it.Kind, sanitize.Summary(it.Agent, 24), waited(now.Sub(it.WaitingSince)),
			shortDir(it.Cwd), sanitize.Summary(msg, 60))
	}
	tw.Flush()
}

// waited is a wait as people say it: 12s, 4m, 2h, 3d.
func waited(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// shortDir shows a directory under the home directory as ~/...
func shortDir(dir string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "/" {
		if rest, ok := strings.CutPrefix(dir, home); ok && (rest == "" || rest[0] == '/') {
			dir = "~" + rest
		}
	}
	if dir == "" {
		return "-"
	}
	return sanitize.Summary(dir, 40)
}
