package fullscreen

import (
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// markdown is the conversation as markdown: prompts as quotes, replies as
// the agent wrote them, tool calls, plans and elicit's notes as lines.
// Everything from the agent went through the sanitizer when it arrived.
func (t *transcript) markdown() string {
	var b strings.Builder
	for _, it := range t.items {
		switch it.kind {
		case kindUser:
			for _, l := range strings.Split(strings.TrimRight(it.text.String(), "\n"), "\n") {
				b.WriteString("> " + l + "\n")
			}
		case kindAgent:
			b.WriteString(strings.TrimRight(it.body.String(), "\n") + "\n")
		case kindThought:
			continue
		case kindTool:
			fmt.Fprintf(&b, "- tool: %s", orID(it.tool))
			if it.tool.Status != "" {
				fmt.Fprintf(&b, " (%s)", strings.ReplaceAll(sanitize.ID(it.tool.Status), "_", " "))
			}
			if it.refused != "" {
				b.WriteString(" — " + it.refused)
			}
			b.WriteString("\n")
		case kindPlan:
			b.WriteString("Plan:\n")
			for _, e := range it.plan.Entries {
				fmt.Fprintf(&b, "- [%s] %s\n", strings.ReplaceAll(sanitize.ID(e.Status), "_", " "), e.Content)
			}
		default:
			b.WriteString("_" + strings.TrimRight(it.text.String(), "\n") + "_\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// exportedMsg reports /export.
type exportedMsg struct {
	path string
	err  error
}

// export writes the conversation as markdown to path.
func export(path, text string) tea.Cmd {
	return func() tea.Msg {
		return exportedMsg{path, os.WriteFile(path, []byte(text), 0o600)}
	}
}

// localCommand runs elicit's own slash commands (those the agent does
// not offer itself): /export [FILE].
func (m *Model) localCommand(text string) (tea.Cmd, bool) {
	name, arg, _ := strings.Cut(text, " ")
	if name != "/export" || m.agentHas("export") {
		return nil, false
	}
	path := strings.TrimSpace(arg)
	if path == "" {
		path = "elicit-" + m.now().Format("2006-01-02-150405") + ".md"
	}
	return export(path, m.tr.markdown()), true
}

// agentHas reports whether the agent offers the slash command name.
func (m *Model) agentHas(name string) bool {
	for _, c := range m.commands {
		if c.Name == name {
			return true
		}
	}
	return false
}

// Transcript is the conversation as markdown, for printing to the normal
// screen when the full screen ends, so it stays in the scrollback.
func (m *Model) Transcript() string { return m.tr.markdown() }
