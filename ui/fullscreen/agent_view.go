package fullscreen

import (
	"fmt"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
)

// panel is the prompt: the slash commands' completion list over a rule,
// then the input.
func (m *agentPanel) panel(width, _ int) string {
	rule := m.th.Border.Render(strings.Repeat("─", width))
	if hints := m.hintsView(width); hints != "" {
		rule = hints + "\n" + rule
	}
	return rule + "\n" + m.promptView()
}

// header: the session has none; its state is in the status bar.
func (m *agentPanel) header(int) string { return "" }

// endScrolls says the End key brings the transcript back to its end: the
// prompt is empty (else End is the prompt's).
func (m *agentPanel) endScrolls() bool { return m.input.Value() == "" }

// status is the session's title, mode, model and usage, and where the
// agent and the turn are.
func (m *agentPanel) status() []string {
	th := m.th
	var parts []string
	if m.title != "" {
		parts = append(parts, th.StatusItem.Render(sanitizeSummary(m.title, 30)))
	}
	for _, kind := range []string{acpconn.KindMode, acpconn.KindModel} {
		if sel, ok := m.session.Selector(kind); ok {
			parts = append(parts, th.StatusItem.Render(kind+" "+sel.CurrentName()))
		}
	}
	if u := usageText(m.usage); u != "" {
		parts = append(parts, th.Muted.Render(u))
	}
	switch {
	case m.signingIn():
		parts = append(parts, th.Warning.Render("sign-in needed"))
	case m.rc.active:
		parts = append(parts, th.Warning.Render(fmt.Sprintf("⟳ reconnecting %d/%d", m.rc.attempt, reconnectAttempts)))
	case m.connState == connStarting:
		stage, _ := m.stage.Load().(string)
		el := m.now().Sub(m.startedAt).Round(time.Second)
		parts = append(parts, th.Info.Render(fmt.Sprintf("%s starting %s… %s · %s", m.spin.View(), m.name, stage, el)))
	case m.connState == connGone && m.exited != nil:
		parts = append(parts, th.Danger.Render("agent exited · ctrl+r restarts"))
	case m.connState == connGone:
		parts = append(parts, th.Danger.Render("no session · ctrl+r restarts"))
	case m.turn != turnIdle && m.waitingForUser():
		// The agent waits on the user: no spinner, no clock (nothing
		// redraws), and short, so the question count after it fits 60
		// columns.
		parts = append(parts, th.Info.Render("⏸ waiting"))
	case m.turn != turnIdle:
		el := m.now().Sub(m.turnStarted).Round(100 * time.Millisecond)
		parts = append(parts, th.Info.Render(fmt.Sprintf("%s %s %s", m.spin.View(), m.turn, el)))
	default:
		parts = append(parts, th.Success.Render(m.turn.String()))
	}
	return parts
}

// usageText is the context used of its size and the cost so far, short:
// "13k/1M ctx · 0.39 USD".
func usageText(u acpconn.Usage) string {
	var parts []string
	if u.Size > 0 {
		parts = append(parts, fmt.Sprintf("%s/%s ctx", count(u.Used), count(u.Size)))
	}
	if u.Cost != "" {
		parts = append(parts, u.Cost)
	}
	return strings.Join(parts, " · ")
}

// count writes a token count the short way: 950, 13k, 1.2M.
func count(n int) string {
	switch {
	case n >= 1_000_000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e6), ".0") + "M"
	case n >= 10_000:
		return fmt.Sprintf("%dk", n/1000)
	case n >= 1000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e3), ".0") + "k"
	}
	return fmt.Sprint(n)
}
