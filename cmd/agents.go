package cmd

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/internal/config"
)

// newAgentsCommand is `elicit agents`.
func newAgentsCommand(a *app) *cobra.Command {
	var path string
	cmd := &cobra.Command{
		Use:   "agents",
		Short: "List the named agents, installed or not",
		Long: "Lists the agents elicit AGENT can run: the [agents.NAME] tables of the config file, then the built-in names " +
			"whose command is on PATH (a configured name hides the built-in of the same name).",
		Example: "elicit agents\nelicit agents --config ./elicit.toml",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := loadAgents(path)
			if err != nil {
				fmt.Fprintln(textOut(a.stderr), "elicit:", err)
				return a.exit(exitFailed)
			}
			config.WriteAgents(textOut(a.stdout), c.Agents())
			return nil
		},
	}
	addConfigFlag(cmd.Flags(), &path)
	return cmd
}

// loadAgents reads the configuration for its agents: a missing file (the
// default one, or the one --config names) has none but the built-ins.
func loadAgents(path string) (*config.Config, error) {
	if path == "" {
		path = config.DefaultPath()
	}
	c, err := config.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &config.Config{Path: path}, nil
	}
	return c, err
}
