package cmd

import (
	"errors"
	"fmt"
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

// tuneCompletion makes cobra's completion command read like the others:
// a word that is no shell, or none, is a usage error (cobra shows the
// help and exits 0), and bash's script works without the bash-completion
// package (completion_bash.go).
func tuneCompletion(c *cobra.Command) {
	c.Short = "A shell completion script: bash, zsh, fish or powershell"
	c.Example = "source <(elicit completion bash)\nelicit completion zsh > \"${fpath[1]}/_elicit\""
	c.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usageError{err: fmt.Errorf("unknown shell %q: elicit completion bash, zsh, fish or powershell", args[0]), cmd: cmd}
		}
		return nil
	}
	c.RunE = func(cmd *cobra.Command, args []string) error {
		return usageError{err: errors.New("name the shell: elicit completion bash, zsh, fish or powershell"), cmd: cmd}
	}
	c.Long = "Prints a completion script for bash, zsh, fish or powershell: subcommands, flags and the agents' names (from the config file and the built-ins) complete. Each shell's help says where its script goes."
	for _, shell := range c.Commands() {
		shell.Example = "elicit completion " + shell.Name()
		shell.Args = noArgs
		shell.Long = completionLong[shell.Name()]
		if shell.Name() == "bash" {
			bashCompletion(shell)
		}
	}
}

// completionLong says, for each shell, where its script goes (cobra's
// text says bash's needs the bash-completion package: elicit's does not).
var completionLong = map[string]string{
	"bash": "Prints the completion script for bash. It works with the bash-completion package and without it (a bare bash).\n\n" +
		"For the current shell: source <(elicit completion bash). For every new shell, put that line in ~/.bashrc (or, with " +
		"bash-completion, put the script in its completions directory: see the README).",
	"zsh": "Prints the completion script for zsh. Install it as _elicit in a directory of $fpath, with compinit run in ~/.zshrc: " +
		"elicit completion zsh > \"${fpath[1]}/_elicit\". For the current shell: source <(elicit completion zsh).",
	"fish": "Prints the completion script for fish. Install it as ~/.config/fish/completions/elicit.fish; for the current shell: " +
		"elicit completion fish | source.",
	"powershell": "Prints the completion script for PowerShell. Add this line to $PROFILE: " +
		"elicit completion powershell | Out-String | Invoke-Expression.",
}
