package config

import (
	"fmt"
	"time"
)

// The file's shape as the TOML decoder sees it. The go-toml decoder sets a
// string-kinded field directly and never calls its UnmarshalText, so each
// checked string is wrapped in a struct: then UnmarshalText runs, and its
// error comes back with the line of the value.

type fileConfig struct {
	Agents      map[string]AgentEntry `toml:"agents"`
	Hooks       []fileHook            `toml:"hooks"`
	TopDomains  []string              `toml:"top_domains"`
	Theme       themeText             `toml:"theme"`
	Notify      notifyText            `toml:"notify"`
	History     *bool                 `toml:"history"`
	Permissions *Permissions          `toml:"permissions"`
	MCPServers  map[string]MCPEntry   `toml:"mcp_servers"`
	Inbox       any                   `toml:"inbox"` // false, or a table (inbox.go)
	TypingWin   Duration              `toml:"typing_window"`
}

type fileHook struct {
	Event   eventText `toml:"event"`
	Command []string  `toml:"command"`
	Agent   globText  `toml:"agent"`
	Timeout Duration  `toml:"timeout"`
}

type (
	eventText  struct{ Event }
	globText   struct{ Glob }
	themeText  struct{ Theme }
	notifyText struct{ Notify }
)

// config converts what was decoded into a Config.
func (f *fileConfig) config(path string) (*Config, error) {
	inbox, err := inboxOf(f.Inbox)
	if err != nil {
		return nil, &Error{Path: path, Msg: err.Error()}
	}
	if w := time.Duration(f.TypingWin); w != 0 && (w < MinTypingWindow || w > MaxTypingWindow) {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("typing_window %s: want from %s to %s", w, MinTypingWindow, MaxTypingWindow)}
	}
	c := &Config{
		TypingWindow: time.Duration(f.TypingWin),
		AgentEntries: f.Agents,
		TopDomains:   f.TopDomains,
		Theme:        f.Theme.Theme,
		Notify:       f.Notify.Notify,
		History:      f.History,
		MCPEntries:   f.MCPServers,
		Inbox:        inbox,
		Path:         path,
	}
	for _, h := range f.Hooks {
		c.Hooks = append(c.Hooks, Hook{Event: h.Event.Event, Command: h.Command, Agent: h.Agent.Glob, Timeout: h.Timeout})
	}
	return c, nil
}
