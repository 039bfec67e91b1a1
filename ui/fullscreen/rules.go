package fullscreen

import (
	"context"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/permissions"
	"github.com/elicit-dev/elicit/session"
)

// rulesMsg carries the notes of a rule kept ("always allow here") or
// removed (/permissions remove N), written off the loop.
type rulesMsg struct{ notes []session.Note }

// keepRules writes the rules "always allow here" keeps, off the loop.
func keepRules(c *session.Core, keep []session.Keep) []tea.Cmd {
	var cmds []tea.Cmd
	for _, k := range keep {
		cmds = append(cmds, func() tea.Msg { return rulesMsg{c.KeepRule(context.Background(), k)} })
	}
	return cmds
}

// forgetRule removes a rule, off the loop.
func forgetRule(c *session.Core, r *permissions.Rule) tea.Cmd {
	return func() tea.Msg { return rulesMsg{c.ForgetRule(context.Background(), r)} }
}

// permissionsCommand is /permissions: the rules in force, numbered, with
// where each is written; `/permissions remove N` removes rule N (one
// "always allow here" kept; another file's rule is edited there). It is
// the agent panel's: the rules decide an ACP agent's permissions.
func (m *agentPanel) permissionsCommand(arg string) tea.Cmd {
	rules := m.core.Rules()
	verb, n, _ := strings.Cut(strings.TrimSpace(arg), " ")
	switch verb {
	case "":
		m.tr.info("permission rules in force (deny, then ask, then allow; /permissions remove N removes one):\n" + strings.Join(session.DescribeRules(rules), "\n"))
		return nil
	case "remove":
		i, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || i < 1 || i > len(rules) {
			m.tr.notice("/permissions remove N: N is a rule's number in /permissions", true)
			return nil
		}
		return forgetRule(m.core, rules[i-1])
	}
	m.tr.notice("/permissions lists the rules; /permissions remove N removes one", true)
	return nil
}
