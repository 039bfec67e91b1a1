package cmd

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/internal/history"
)

// newHistoryCommand is `elicit history [list|forget AGENT|clear]`.
func newHistoryCommand(a *app) *cobra.Command {
	// dir is the state directory; tests point it elsewhere.
	dir := history.DefaultDir
	fail := func(err error) error {
		fmt.Fprintln(textOut(a.stderr), "elicit:", err)
		return a.exit(exitFailed)
	}
	list := func(cmd *cobra.Command, args []string) error {
		s, err := history.OpenDir(dir())
		if err != nil {
			return fail(err)
		}
		sum, err := s.List()
		if err != nil {
			return fail(err)
		}
		history.WriteSummary(textOut(a.stdout), sum, time.Now())
		return nil
	}
	cmd := &cobra.Command{
		Use:   "history",
		Short: "What elicit remembers; forget it",
		Long: "elicit remembers the answers of accepted forms (to prefill the same form next time and suggest recent values) " +
			"and the sites opened from a URL consent screen, in $XDG_STATE_HOME/elicit. --no-history runs a session without it.",
		Example: "elicit history\nelicit history forget claude\nelicit history clear",
		Args:    noArgs,
		RunE:    list,
	}
	cmd.AddCommand(&cobra.Command{
		Use:     "list",
		Short:   "List the remembered answers by agent, and the sites (the default)",
		Example: "elicit history list",
		Args:    noArgs,
		RunE:    list,
	}, &cobra.Command{
		Use:     "forget AGENT",
		Short:   "Forget the answers given to one agent",
		Example: "elicit history forget claude",
		Args:    needArgs(1, 1, "AGENT", "give the AGENT whose answers to forget (elicit history lists them): elicit history forget claude"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := history.OpenDir(dir())
			if err != nil {
				return fail(err)
			}
			found, err := s.ForgetAgent(args[0])
			switch {
			case err != nil:
				return fail(err)
			case !found:
				fmt.Fprintf(textOut(a.stdout), "nothing remembered for %q\n", args[0])
			default:
				fmt.Fprintf(textOut(a.stdout), "forgot the answers given to %q\n", args[0])
			}
			return nil
		},
	}, &cobra.Command{
		Use:     "clear",
		Short:   "Forget every answer and site (also repairs a damaged file)",
		Example: "elicit history clear",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := history.OpenDir(dir())
			if err != nil {
				return fail(err)
			}
			if err := s.Clear(); err != nil {
				return fail(err)
			}
			fmt.Fprintf(textOut(a.stdout), "cleared the history in %s\n", s.Dir())
			return nil
		},
	})
	return cmd
}
