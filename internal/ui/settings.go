package ui

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/theme"
)

// settingsModal lists the session's modes and configuration values, and
// pausing the agent's questions; the pick is a setting value.
type settingsModal struct{ choiceModal }

// setting is one pick of the settings dialog.
type setting struct {
	mode   string                // a mode id, for session/set_mode
	option *acpconn.ConfigOption // an option, for session/set_config_option
	value  string                // the option's new value id
	pause  *bool                 // pause or resume the agent's questions
}

// choiceKeys numbers the first nine settings, then letters (the dialog is
// opened on purpose, so its keys may pick at once).
const choiceKeys = "123456789abcdefghijklmnopqrstuvwxyz"

func newSettingsModal(st acpconn.SessionState, paused bool, th *theme.Theme) *settingsModal {
	s := &settingsModal{choiceModal{title: "Session settings", th: th,
		body: "Pick a mode or a value (the current ones are marked):"}}
	add := func(label string, v setting) {
		k := ""
		if len(s.choices) < len(choiceKeys) {
			k = string(choiceKeys[len(s.choices)])
		}
		s.choices = append(s.choices, choice{k, label, v})
	}
	for _, md := range st.Modes {
		add("mode "+sanitize.Line(md.Name)+mark(md.ID == st.Mode), setting{mode: md.ID})
	}
	for i := range st.Options {
		o := &st.Options[i]
		if o.Boolean {
			add(fmt.Sprintf("%s: %s (toggle)", sanitize.Line(o.Name), onOff(o.Current == "true")), setting{option: o, value: fmt.Sprint(o.Current != "true")})
			continue
		}
		for _, v := range o.Values {
			add(fmt.Sprintf("%s: %s", sanitize.Line(o.Name), sanitize.Line(v.Name))+mark(v.ID == o.Current), setting{option: o, value: v.ID})
		}
	}
	p := !paused
	label := "pause questions from this agent (forms and URLs are declined unasked)"
	if paused {
		label = "resume questions from this agent"
	}
	add(label, setting{pause: &p})
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
func (m *Model) applySetting(pick any) tea.Cmd {
	s, ok := pick.(setting)
	switch {
	case !ok:
		return nil
	case s.pause != nil:
		return m.changes(m.core.SetPaused(*s.pause))
	case s.mode != "":
		m.session.Mode = s.mode
		return setMode(m.conn, s.mode)
	case s.option != nil:
		return setConfig(m.conn, *s.option, s.value)
	}
	return nil
}

func setConfig(c *acpconn.Conn, o acpconn.ConfigOption, value string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		opts, err := c.SetConfigOption(ctx, o, value)
		if err != nil {
			return cmdErrMsg{"set " + sanitize.Line(o.Name), err}
		}
		return configMsg{opts}
	}
}
