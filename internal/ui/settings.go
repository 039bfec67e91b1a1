package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/theme"
)

// settingsModal lists the session's modes and configuration values; the
// pick becomes session/set_mode or session/set_config_option.
type settingsModal struct{ choiceModal }

// keysFor numbers the first nine choices, then letters.
const choiceKeys = "123456789abcdefghijklmnopqrstuvwxyz"

func newSettingsModal(st acpconn.SessionState, th *theme.Theme, now func() time.Time) *settingsModal {
	s := &settingsModal{choiceModal{title: "Session settings", th: th, now: now, shown: now(),
		body: "Pick a mode or a value (the current ones are marked):"}}
	add := func(label, value string) {
		if len(s.choices) < len(choiceKeys) {
			s.choices = append(s.choices, choice{string(choiceKeys[len(s.choices)]), label, value})
		}
	}
	for _, md := range st.Modes {
		add("mode "+md.Name+mark(md.ID == st.Mode), "mode\x00"+md.ID)
	}
	for _, o := range st.Options {
		if o.Boolean {
			add(fmt.Sprintf("%s: %s", o.Name, onOff(o.Current == "true"))+" (toggle)", "opt\x00"+o.ID+"\x00"+fmt.Sprint(o.Current != "true"))
			continue
		}
		for _, v := range o.Values {
			add(fmt.Sprintf("%s: %s", o.Name, v.Name)+mark(v.ID == o.Current), "opt\x00"+o.ID+"\x00"+v.ID)
		}
	}
	if len(s.choices) == 0 {
		s.body = "This agent offers no modes or settings."
	}
	return s
}

func mark(current bool) string {
	if current {
		return "  ← current"
	}
	return ""
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// configMsg carries the options as the agent reports them after a change.
type configMsg struct{ options []acpconn.ConfigOption }

// applySetting turns a settings pick into the call that makes it.
func (m *Model) applySetting(pick string) tea.Cmd {
	parts := strings.Split(pick, "\x00")
	switch {
	case len(parts) == 2 && parts[0] == "mode":
		m.session.Mode = parts[1]
		return setMode(m.conn, parts[1])
	case len(parts) == 3 && parts[0] == "opt":
		for _, o := range m.session.Options {
			if o.ID == parts[1] {
				return setConfig(m.conn, o, parts[2])
			}
		}
	}
	return nil
}

func setConfig(c *acpconn.Conn, o acpconn.ConfigOption, value string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		opts, err := c.SetConfigOption(ctx, o, value)
		if err != nil {
			return cmdErrMsg{"set " + o.Name, err}
		}
		return configMsg{opts}
	}
}
