package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// completeAgents completes a command's AGENT argument: the names of the
// config file (--config, or the default one) and the built-ins, each with
// its command. After -- the shell completes the agent's command as it
// would any command.
func completeAgents(a *app, configFile *string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if a.completingAfterDash() {
			return nil, cobra.ShellCompDirectiveDefault
		}
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		c, err := loadAgents(*configFile)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, ag := range c.Agents() {
			if !strings.HasPrefix(ag.Name, toComplete) {
				continue
			}
			desc := string(ag.Source) + ": " + strings.Join(ag.Command, " ")
			if !ag.Installed() {
				desc += " (not installed)"
			}
			out = append(out, cobra.CompletionWithDesc(ag.Name, desc))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completingAfterDash reports a completion request (`elicit __complete
// WORDS... PARTIAL`) with "--" among the words: cobra's ArgsLenAtDash
// cannot tell, since completion parses the flags once with a "--" of its
// own added.
func (a *app) completingAfterDash() bool {
	if len(a.argv) < 2 || a.argv[0] != cobra.ShellCompRequestCmd && a.argv[0] != cobra.ShellCompNoDescRequestCmd {
		return false
	}
	return slices.Contains(a.argv[1:len(a.argv)-1], "--")
}
