package cmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/permissions"
)

// newConfigCommand is `elicit config path|check`.
func newConfigCommand(a *app) *cobra.Command {
	var path string
	configPath := func() string {
		if path != "" {
			return path
		}
		return config.DefaultPath()
	}
	cmd := &cobra.Command{
		Use:     "config",
		Short:   "Where the config file is; whether it reads",
		Example: "elicit config path\nelicit config check",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.help(cmd)
		},
	}
	addConfigFlag(cmd.PersistentFlags(), &path)
	cmd.AddCommand(&cobra.Command{
		Use:     "path",
		Short:   "Print the config file's path (--config, or the default)",
		Example: "elicit config path",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(textOut(a.stdout), configPath())
			return nil
		},
	}, newConfigCheck(a, configPath))
	return cmd
}

// newConfigCheck is `elicit config check`: the file read strictly, then
// the permission rules it holds (and the --policy files', and those kept
// for the current directory), each with its file and line, with the ones
// that can never decide anything flagged (exit status 1).
func newConfigCheck(a *app, configPath func() string) *cobra.Command {
	var policies []string
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Read the config file and say what is wrong, with its line",
		Long: "Reads the config file strictly, as every command does, and says what is wrong with it (the file and the line), or how many agents, hooks and MCP servers it holds, and for each MCP server how it is reached and what would keep it from agents. " +
			"Then it lists the permission rules in force here, each with its file and line (the file's, each agent's, the ones kept for this directory by \"always allow here\", and those of each --policy FILE), and flags the ones that can never decide anything (exit status 1). No file is no error: the defaults apply.",
		Example: "elicit config check\nelicit config check --config ./elicit.toml\nelicit config check --policy ci.toml",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p := configPath()
			c, err := config.Load(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				fmt.Fprintf(textOut(a.stdout), "%s: no file (the defaults apply)\n", p)
				c, _ = config.Parse(nil, p)
			case err != nil:
				fmt.Fprintln(textOut(a.stderr), "elicit:", err)
				return a.exit(exitFailed)
			default:
				out := textOut(a.stdout)
				fmt.Fprintf(out, "%s: ok (%d agents, %d hooks, %d MCP servers)\n", p, len(c.AgentEntries), len(c.Hooks), len(c.MCPEntries))
				writeMCPServers(out, c)
			}
			flagged, err := checkRules(textOut(a.stdout), c, p, policies)
			if err != nil {
				fmt.Fprintln(textOut(a.stderr), "elicit:", err)
				return a.exit(exitFailed)
			}
			if flagged > 0 {
				fmt.Fprintf(textOut(a.stderr), "elicit: %d permission %s can never decide anything (marked ^ above)\n", flagged, map[bool]string{true: "rule", false: "rules"}[flagged == 1])
				return a.exit(exitFailed)
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&policies, "policy", nil, "check the permission rules in `FILE` too")
	return cmd
}

// checkRules prints the rules for every agent, then each agent's own.
func checkRules(w io.Writer, c *config.Config, path string, policies []string) (flagged int, err error) {
	set, err := loadRules(c, path, "", "", policies)
	if err != nil {
		return 0, err
	}
	if set.Len() > 0 {
		fmt.Fprintln(w, "permission rules (deny, then ask, then allow; the first of the strongest kind decides):")
		flagged += printRules(w, set, nil)
	}
	names := make([]string, 0, len(c.AgentEntries))
	for name, e := range c.AgentEntries {
		if e.Permissions != nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		agentSet, err := loadRules(c, path, name, "", policies)
		if err != nil {
			return flagged, err
		}
		own := map[*permissions.Rule]bool{}
		for _, r := range c.RulesFor(name)[len(c.Rules):] {
			own[r] = true
		}
		fmt.Fprintf(w, "for elicit %s, also:\n", name)
		flagged += printRules(w, agentSet, own)
	}
	return flagged, nil
}
