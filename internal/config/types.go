package config

import (
	"fmt"
	"path"
	"time"
)

// Event names a hook event, spelled as in Claude Code's hook contract.
type Event string

// The hook events elicit runs.
const (
	// Elicitation runs before a question is shown; a hook may answer it.
	Elicitation Event = "Elicitation"
	// ElicitationResult runs after the user answered; a hook may override it.
	ElicitationResult Event = "ElicitationResult"
)

// UnmarshalText accepts only the known events.
func (e *Event) UnmarshalText(b []byte) error {
	switch v := Event(b); v {
	case Elicitation, ElicitationResult:
		*e = v
		return nil
	}
	return fmt.Errorf("event %q is not %q or %q", b, Elicitation, ElicitationResult)
}

// Glob is a path.Match pattern on an agent's name, checked when it is read.
type Glob string

// UnmarshalText refuses a pattern path.Match cannot use.
func (g *Glob) UnmarshalText(b []byte) error {
	if _, err := path.Match(string(b), ""); err != nil {
		return fmt.Errorf("agent glob %q: %v", b, err)
	}
	*g = Glob(b)
	return nil
}

// Match reports whether the agent's name matches; an empty glob matches
// every agent.
func (g Glob) Match(agent string) bool {
	if g == "" {
		return true
	}
	ok, _ := path.Match(string(g), agent)
	return ok
}

// Duration is a time.Duration written as Go writes it ("10s", "1m30s").
type Duration time.Duration

// UnmarshalText parses a positive duration.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("duration %q: want a number and a unit, like \"10s\" or \"1m\"", b)
	}
	if v <= 0 {
		return fmt.Errorf("duration %q: must be more than zero", b)
	}
	*d = Duration(v)
	return nil
}

// Theme is the colour theme: auto (ask the terminal), dark or light.
type Theme string

// The themes.
const (
	ThemeAuto  Theme = "auto"
	ThemeDark  Theme = "dark"
	ThemeLight Theme = "light"
)

// UnmarshalText accepts only the known themes.
func (t *Theme) UnmarshalText(b []byte) error {
	switch v := Theme(b); v {
	case ThemeAuto, ThemeDark, ThemeLight:
		*t = v
		return nil
	}
	return fmt.Errorf("theme %q is not \"auto\", \"dark\" or \"light\"", b)
}

// MarshalText lets a flag hold a Theme (flag.TextVar).
func (t Theme) MarshalText() ([]byte, error) { return []byte(t), nil }

// Notify says when a question rings the terminal's notification.
type Notify string

// The notification preferences.
const (
	NotifyUnfocused Notify = "unfocused"
	NotifyAlways    Notify = "always"
	NotifyNever     Notify = "never"
)

// UnmarshalText accepts only the known preferences.
func (n *Notify) UnmarshalText(b []byte) error {
	switch v := Notify(b); v {
	case NotifyUnfocused, NotifyAlways, NotifyNever:
		*n = v
		return nil
	}
	return fmt.Errorf("notify %q is not \"unfocused\", \"always\" or \"never\"", b)
}

// MarshalText lets a flag hold a Notify (flag.TextVar).
func (n Notify) MarshalText() ([]byte, error) { return []byte(n), nil }
