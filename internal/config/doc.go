// Package config reads elicit's TOML configuration file: named agents,
// hooks, the MCP servers agents are given, extra well-known domains,
// theme, notifications and history.
//
//	cfg, err := config.LoadDefault() // a missing file is an empty config
//	if err != nil {
//		return err // *config.Error: says the file and the line
//	}
//	agent, err := cfg.Agent("claude") // the file first, then the built-ins on PATH
//	set := cfg.Settings(config.Overrides{History: noHistoryFlag})
//
// Loading is strict: an unknown key, a bad glob, a bad duration or an
// unknown value is an error naming the line. Nothing here starts a process;
// Agent only looks executables up on PATH.
package config
