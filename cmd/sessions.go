package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/ui/headless"
)

// sessionsOptions are the flags of `elicit sessions`.
type sessionsOptions struct {
	agent      agentOptions
	configFile string
}

const sessionsExample = `
# The demo agent's sessions in this directory:
elicit sessions

# A named agent's, in another directory:
elicit sessions claude --cwd ~/src/project

# Any agent's, then take one up:
elicit sessions -- claude-agent-acp
elicit --resume 4f2c -- claude-agent-acp
`

// newSessionsCommand is `elicit sessions [AGENT] [-- COMMAND...]`.
func newSessionsCommand(a *app) *cobra.Command {
	var o sessionsOptions
	cmd := &cobra.Command{
		Use:   "sessions [AGENT]",
		Short: "The agent's past sessions here, newest first",
		Long: "Asks the agent (a named one, the command after --, or the demo agent) for its past sessions in the directory " +
			"(session/list): ID, last update and title, newest first. " +
			"Take one up with elicit --resume ID, or the most recent with elicit -c.",
		Example:           sessionsExample,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeAgents(a, &o.configFile),
		RunE: func(cmd *cobra.Command, args []string) error {
			req, err := newSessionRequest(cmd, sessionOptions{}, args)
			if err != nil {
				return err
			}
			stderr := textOut(a.stderr)
			file, _, err := loadConfig(o.configFile)
			if err != nil {
				fmt.Fprintln(stderr, "elicit:", err)
				return a.exit(exitUsage)
			}
			agent, err := resolveAgent(file, req.name, req.argv, req.suggest)
			if err != nil {
				fmt.Fprintln(stderr, "elicit:", err)
				return a.exit(exitUsage)
			}
			cfg, closeLog, code := agentConfig(o.agent, agent, stderr)
			if code != 0 {
				return a.exit(code)
			}
			defer closeLog()
			return a.exit(withSignals(func() int { // the agent, and what it left, end with the command
				return headless.RunSessions(headless.SessionsOptions{Agent: cfg, Stdout: textOut(a.stdout), Stderr: stderr})
			}))
		},
	}
	addAgentFlags(cmd, &o.agent)
	addRemoteFlags(cmd, &o.agent.remote)
	addConfigFlag(cmd.Flags(), &o.configFile)
	return cmd
}
