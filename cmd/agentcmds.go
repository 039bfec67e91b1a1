package cmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/internal/demoagent"
)

// demoAgentCommand is the hidden subcommand that runs the demo agent:
// elicit with no agent named runs itself as this.
const demoAgentCommand = "__demo-agent"

// newDemoAgentCommand is `elicit __demo-agent`: the built-in demo agent on
// stdin and stdout (ACP), nothing else on stdout.
func newDemoAgentCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:                demoAgentCommand,
		Short:              "Run the built-in demo agent on stdin and stdout",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := demoagent.Run(context.Background(), a.stdin, a.stdout); err != nil {
				fmt.Fprintln(textOut(a.stderr), "demo agent:", err)
				return a.exit(exitFailed)
			}
			return nil
		},
	}
}
