package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/permissions"
)

// loadRules gathers the permission rules in force for a session of agent
// (a name from the config file, or "") in dir: the config file's
// [permissions], the agent's own table, the rules "always allow here"
// kept for the directory, then each --policy file's. A rule that cannot be
// read, a key no file may hold, or a file others could have written is an
// error naming the file and the line.
func loadRules(file *config.Config, configPath, agent, dir string, policies []string) (*permissions.Set, error) {
	set := permissions.NewSet(file.RulesFor(agent)...)
	if root, err := sessionRoot(dir); err == nil {
		kept, err := config.ProjectFor(configPath, root).Rules()
		if err != nil {
			return nil, err
		}
		set.Add(kept...)
	}
	for _, p := range policies {
		rules, err := config.LoadPolicy(p)
		if err != nil {
			return nil, fmt.Errorf("--policy: %w", err)
		}
		set.Add(rules...)
	}
	return set, nil
}

// sessionRoot is the session directory as acpconn resolves it (absolute,
// symbolic links followed), which names its project's rules file.
func sessionRoot(dir string) (string, error) {
	if dir == "" {
		d, err := os.Getwd()
		if err != nil {
			return "", err
		}
		dir = d
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// printRules lists the rules of set that show names (all of them when
// nil) for `elicit config check`, each with its list and where it is
// written, and flags those that can never decide anything in set.
func printRules(w io.Writer, set *permissions.Set, show map[*permissions.Rule]bool) (flagged int) {
	lints := map[*permissions.Rule]string{}
	for _, l := range permissions.Lints(set, acpconn.CodeRisk) {
		lints[l.Rule] = l.Why
	}
	for _, r := range set.Rules() {
		if show != nil && !show[r] {
			continue
		}
		fmt.Fprintf(w, "  %-5s %s  (%s)\n", r.Verdict, r.Text, r.Source)
		if why, ok := lints[r]; ok {
			fmt.Fprintf(w, "        ^ %s\n", why)
			flagged++
		}
	}
	return flagged
}
