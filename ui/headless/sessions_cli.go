package headless

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/ui/internal/opener"
)

// SessionsOptions configure `elicit sessions`: the agent's past sessions
// in a directory.
type SessionsOptions struct {
	Agent          acpconn.Config
	Timeout        time.Duration // 0 = one minute
	Stdout, Stderr io.Writer
}

// RunSessions prints the agent's sessions for the directory, newest first:
// id, last update, title. It returns the exit status.
func RunSessions(o SessionsOptions) int {
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	c, err := acpconn.Start(ctx, o.Agent)
	if err != nil {
		fmt.Fprintln(o.Stderr, "elicit:", sanitize.Text(err.Error()))
		return ExitFailed
	}
	defer c.Close()
	go func() { // nobody answers questions here: keep the events moving
		for range c.Events() {
		}
	}()
	list, err := c.ListSessions(ctx)
	switch {
	case errors.Is(err, acpconn.ErrNotSupported):
		fmt.Fprintf(o.Stderr, "elicit: %s cannot list its sessions (it does not offer session/list)\n", c.AgentName())
		return ExitFailed
	case acpconn.IsAuthRequired(err):
		fmt.Fprintln(o.Stderr, "elicit: "+opener.Help(err, c.AuthMethods(), opener.Auto{}))
		return ExitFailed
	case err != nil:
		fmt.Fprintln(o.Stderr, "elicit:", sanitize.Text(err.Error()))
		return ExitFailed
	}
	if len(list) == 0 {
		fmt.Fprintf(o.Stderr, "elicit: %s has no session in %s\n", c.AgentName(), sanitize.Line(c.Root()))
		return ExitOK
	}
	tw := tabwriter.NewWriter(o.Stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tTITLE")
	for _, s := range list {
		updated := "-"
		if !s.Updated.IsZero() {
			updated = s.Updated.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", sanitize.ID(s.ID), updated, sanitize.Summary(s.Title, 80))
	}
	tw.Flush()
	if c.SessionCaps().CanReopen() {
		fmt.Fprintln(o.Stderr, "elicit --resume ID -- AGENT… takes one up (no ID: the most recent)")
	}
	return ExitOK
}
