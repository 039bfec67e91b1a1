package cmd

import (
	"strings"

	"github.com/spf13/cobra"
)

// subcommands is the one list of elicit's subcommands: a new command is
// a file of its own and a line here (see the package comment). help is
// the root's help command (SetHelpCommand); completion and man are fang's.
func subcommands(a *app) []*cobra.Command {
	return []*cobra.Command{
		newFormCommand(a),
		newURLCommand(a),
		newAgentsCommand(a),
		newConfigCommand(a),
		newHistoryCommand(a),
		newSessionsCommand(a),
		newServeCommand(a),
		newAttachCommand(a),
		newInboxCommand(a),
		newMCPCommand(a),
		newDemoCommand(a),
		newVersionCommand(a),
		newDemoAgentCommand(a),
	}
}

// rootDescription says what elicit does: the root help's description and
// the man page's.
const rootDescription = `elicit runs an Agent Client Protocol agent in the terminal and turns each of its questions into a keyboard-only form or a URL consent screen. With no agent named it runs a built-in demo agent.

Name an agent (elicit agents lists them, from the config file and built in) or give any agent's command after --: everything after -- is the agent's, untouched. Flags go anywhere before --.`

// rootLong is the root help's description, exit statuses included (the
// man page lists them in EXIT STATUS).
const rootLong = rootDescription + `

Exit status: 0 ok, 1 failure, 2 usage error, 124 timeout (-p with --timeout), 130 interrupted.`

const rootExample = `
# The built-in demo agent, full screen:
elicit

# A named agent (from the config file or built in):
elicit claude --mode plan

# Any ACP agent: its command and its flags after --
elicit -- npx @agentclientprotocol/claude-agent-acp

# One prompt without a terminal, forms answered from a file:
elicit gemini -p "summarise README.md" --answers answers.json

# Take up the most recent session, or one by its ID:
elicit claude -c
elicit --resume 4f2c -p "go on" -- claude-agent-acp
`

// newRootCommand builds the command tree: the root runs a session, the
// subcommands the rest.
func newRootCommand(a *app) *cobra.Command {
	var o sessionOptions
	root := &cobra.Command{
		Use:     "elicit [AGENT] [-- COMMAND...]",
		Short:   "A terminal client for ACP agents and their questions",
		Long:    rootLong,
		Example: rootExample,
		Args:    cobra.ArbitraryArgs,
		// Usage errors are fang's to print, once.
		SilenceUsage:      true,
		SilenceErrors:     true,
		ValidArgsFunction: completeAgents(a, &o.files.configFile),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.start.settle(cmd.Flags())
			req, err := newSessionRequest(cmd, o, args)
			if err != nil {
				return err
			}
			return a.exit(a.session(req))
		},
	}
	root.SuggestionsMinimumDistance = 2 // SuggestionsFor reads it as it is
	root.Flags().SortFlags = false
	addSessionFlags(root, &o)
	root.Flags().BoolP("version", "v", false, "print the version, commit, Go version and ACP protocol version")
	root.SetVersionTemplate(versionText(readVersion()))
	addHelpFlag(a, root)
	root.SetFlagErrorFunc(flagError)
	for _, c := range subcommands(a) {
		c.Flags().SortFlags = false
		root.AddCommand(c)
	}
	root.SetHelpCommand(newHelpCommand(a))
	// cobra's completion command, made now rather than under Execute so
	// that it reads like the others.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			tuneCompletion(c)
		}
	}
	root.AddCommand(newManCommand(a))
	return root
}

// sessionRequest is what the command line asks of a session: its flags
// and the agent, named or as a command.
type sessionRequest struct {
	opts       sessionOptions
	accessible bool
	// name is the agent named on the command line; argv the command after
	// --. Neither: the demo agent.
	name string
	argv []string
	// suggest names the subcommands close to a word that is no agent.
	suggest func(string) []string
}

// newSessionRequest reads the root's positional arguments: one agent name
// before --, or the agent's command after it.
func newSessionRequest(cmd *cobra.Command, o sessionOptions, args []string) (sessionRequest, error) {
	req := sessionRequest{opts: o, accessible: accessible(cmd.Flags(), o.screen.accessible), suggest: cmd.Root().SuggestionsFor}
	before, after := args, []string(nil)
	if dash := cmd.ArgsLenAtDash(); dash >= 0 {
		before, after = args[:dash], args[dash:]
		if len(after) == 0 {
			return req, usagef("nothing after --: give the agent's command, or leave -- out for the demo agent")
		}
	}
	switch {
	case len(before) > 1:
		return req, usagef("%d words before --, where one agent name goes: put the agent's command after --, as in elicit [flags] -- %s", len(before), strings.Join(before, " "))
	case len(before) == 1 && after != nil:
		return req, usagef("both an agent name (%q) and a command after --: give one", before[0])
	case len(before) == 1:
		req.name = before[0]
	default:
		req.argv = after
	}
	return req, nil
}
