package cmd

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/internal/config"
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
	}, &cobra.Command{
		Use:     "check",
		Short:   "Read the config file and say what is wrong, with its line",
		Long:    "Reads the config file strictly, as every command does, and says what is wrong with it (the file and the line), or how many agents, hooks and MCP servers it holds, and for each MCP server how it is reached and what would keep it from agents. No file is no error: the defaults apply.",
		Example: "elicit config check\nelicit config check --config ./elicit.toml",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p := configPath()
			c, err := config.Load(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				fmt.Fprintf(textOut(a.stdout), "%s: no file (the defaults apply)\n", p)
			case err != nil:
				fmt.Fprintln(textOut(a.stderr), "elicit:", err)
				return a.exit(exitFailed)
			default:
				out := textOut(a.stdout)
				fmt.Fprintf(out, "%s: ok (%d agents, %d hooks, %d MCP servers)\n", p, len(c.AgentEntries), len(c.Hooks), len(c.MCPEntries))
				writeMCPServers(out, c)
			}
			return nil
		},
	})
	return cmd
}
