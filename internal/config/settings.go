package config

import (
	"slices"
	"time"
)

// Settings are the effective values of the simple keys: built-in defaults,
// then the file, then the command line.
type Settings struct {
	// History is false when elicitation memory is off.
	History bool
	// Theme is auto, dark or light.
	Theme Theme
	// Notify is unfocused, always or never.
	Notify Notify
	// TopDomains are the file's extra well-known domains, then the flags'.
	TopDomains []string
	// Inbox is false when sessions stay out of the user's inbox
	// (--no-inbox, inbox = false).
	Inbox bool
	// TypingWindow is the file's typing_window; 0 is the default.
	TypingWindow time.Duration
}

// Overrides holds what the command line set. A nil pointer means the flag
// was not given, so the file's value stands. With the standard flag
// package, fill it from flag.Visit, which visits only the flags given:
//
//	var o config.Overrides
//	fs.Visit(func(f *flag.Flag) {
//		if f.Name == "no-history" {
//			off := false
//			o.History = &off
//		}
//	})
type Overrides struct {
	History    *bool
	Theme      *Theme
	Notify     *Notify
	TopDomains []string
	Inbox      *bool
}

// Settings merges the file with the command line's overrides.
func (c *Config) Settings(o Overrides) Settings {
	s := Settings{History: true, Theme: ThemeAuto, Notify: NotifyUnfocused, Inbox: true, TypingWindow: c.TypingWindow}
	if c.Inbox.Enabled != nil {
		s.Inbox = *c.Inbox.Enabled
	}
	if o.Inbox != nil {
		s.Inbox = *o.Inbox
	}
	if c.History != nil {
		s.History = *c.History
	}
	if c.Theme != "" {
		s.Theme = c.Theme
	}
	if c.Notify != "" {
		s.Notify = c.Notify
	}
	s.TopDomains = slices.Concat(c.TopDomains, o.TopDomains)
	if o.History != nil {
		s.History = *o.History
	}
	if o.Theme != nil {
		s.Theme = *o.Theme
	}
	if o.Notify != nil {
		s.Notify = *o.Notify
	}
	return s
}
