package fullscreen

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/theme"
)

// settingsModal lists the session's one mode and one model (however the
// agent expresses them, see acpconn.Selector), its other configuration
// values, and pausing the agent's questions; the pick is a setting value.
type settingsModal struct{ choiceModal }

// setting is one pick of the settings dialog (an action).
type setting struct {
	sel    *acpconn.Selector     // the mode or the model
	option *acpconn.ConfigOption // another option, for session/set_config_option
	value  string                // the new value id
	pause  *bool                 // pause or resume the agent's questions
}

// choiceKeys numbers the first nine settings, then letters (the dialog is
// opened on purpose, so its keys may pick at once).
const choiceKeys = "123456789abcdefghijklmnopqrstuvwxyz"

func newSettingsModal(st acpconn.SessionState, paused bool, th *theme.Theme) *settingsModal {
	s := &settingsModal{choiceModal{title: "Session settings", th: th,
		body: "Pick a mode, a model or a value (the current ones are marked):"}}
	add := func(label string, v setting) {
		k := ""
		if len(s.choices) < len(choiceKeys) {
			k = string(choiceKeys[len(s.choices)])
		}
		s.choices = append(s.choices, choice{k, label, v})
	}
	for _, kind := range []string{acpconn.KindMode, acpconn.KindModel} {
		sel, ok := st.Selector(kind)
		if !ok {
			continue
		}
		for _, c := range sel.Choices {
			add(kind+" "+c.Name+mark(c.ID == sel.Current)+describe(th, c.Description), setting{sel: &sel, value: c.ID})
		}
	}
	others := st.OtherOptions()
	for i := range others {
		o := &others[i]
		if o.Boolean {
			add(fmt.Sprintf("%s: %s (toggle)", o.Name, onOff(o.Current == "true"))+describe(th, o.Description), setting{option: o, value: fmt.Sprint(o.Current != "true")})
			continue
		}
		for _, v := range o.Values {
			add(fmt.Sprintf("%s: %s", o.Name, v.Name)+mark(v.ID == o.Current)+describe(th, v.Description), setting{option: o, value: v.ID})
		}
	}
	p := !paused
	label := "pause questions from this agent (forms and URLs are cancelled unasked)"
	if paused {
		label = "resume questions from this agent"
	}
	add(label, setting{pause: &p})
	return s
}

// withMCP lists, above the choices, the MCP servers of the config file:
// given to the agent, or left out and why.
func (s *settingsModal) withMCP(states []acpconn.MCPServerState) *settingsModal {
	if len(states) == 0 {
		return s
	}
	lines := []string{"MCP servers (the config file's [mcp_servers]):"}
	for _, st := range states {
		if st.Passed {
			lines = append(lines, fmt.Sprintf("  ✓ %s (%s): given to the agent", st.Name, st.Transport))
		} else {
			lines = append(lines, fmt.Sprintf("  ✗ %s (%s): left out: %s", st.Name, st.Transport, st.Why))
		}
	}
	s.body = strings.Join(lines, "\n") + "\n\n" + s.body
	return s
}

// describe is an option's description, muted, after its name.
func describe(th *theme.Theme, d string) string {
	if d == "" {
		return ""
	}
	return th.Muted.Render(" — " + sanitize.Summary(d, 80))
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

// stateMsg reports a setting the agent took: the selector, the value, and
// the session state as the agent reported it after.
type stateMsg struct {
	sel acpconn.Selector
	id  string
	st  acpconn.SessionState
}

// onState merges a change the agent took into the session's settings
// (only that change: two changes may be on their way at once).
func (m *agentPanel) onState(msg stateMsg) {
	switch {
	case msg.sel.Option != nil:
		m.session.Update(acpconn.ConfigOptions{Options: msg.st.Options})
	case msg.sel.Kind == acpconn.KindMode:
		m.session.Update(acpconn.ModeChanged{ID: msg.id})
	case msg.sel.Kind == acpconn.KindModel:
		m.session.Model = msg.id
	}
}

// applySetting turns a settings pick into the call that makes it.
func (m *agentPanel) applySetting(s setting) tea.Cmd {
	switch {
	case s.pause != nil:
		return m.changes(m.core.SetPaused(*s.pause))
	case s.sel != nil:
		return m.selectValue(*s.sel, s.value)
	case s.option != nil:
		return selectValue(m.conn, m.session, acpconn.Selector{Option: s.option}, s.value, s.option.Name)
	}
	return nil
}

// selectValue sets the mode or the model, showing the new value at once.
func (m *agentPanel) selectValue(sel acpconn.Selector, id string) tea.Cmd {
	if m.conn == nil || m.connState != connReady {
		return nil
	}
	st := m.session
	if sel.Option == nil && sel.Kind == acpconn.KindMode {
		m.session.Update(acpconn.ModeChanged{ID: id})
	}
	return selectValue(m.conn, st, sel, id, sel.Kind)
}

func selectValue(c *acpconn.Conn, st acpconn.SessionState, sel acpconn.Selector, id, what string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		nst, err := c.Select(ctx, st, sel, id)
		if err != nil {
			return cmdErrMsg{"set " + sanitize.Line(what), err}
		}
		return stateMsg{sel: sel, id: id, st: nst}
	}
}

// cycleMode switches to the next mode (Shift+Tab), however the agent
// expresses modes.
func (m *agentPanel) cycleMode() tea.Cmd {
	sel, ok := m.session.Selector(acpconn.KindMode)
	if !ok || len(sel.Choices) < 2 {
		return nil
	}
	return m.selectValue(sel, sel.Next().ID)
}
