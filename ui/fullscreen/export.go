package fullscreen

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/safefile"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/theme"
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

// exportedMsg reports /export. exists says an explicit FILE is there
// already: the user is asked before it is replaced.
type exportedMsg struct {
	path   string
	err    error
	exists bool
	text   string // the conversation, for a replace the user agrees to
}

// maxExportNames is how many new names a default export tries
// (elicit-TIME.md, elicit-TIME-2.md, ...) before it gives up.
const maxExportNames = 100

// exportNew writes the conversation to a new file, never one that is
// there already, whatever it is (a symbolic link someone planted under
// the default name included): created exclusively. A default name that is
// taken gives way to the next; an explicit one the user named is reported
// as existing, to be asked about.
func exportNew(path string, explicit bool, text string) tea.Cmd {
	return func() tea.Msg {
		base := strings.TrimSuffix(path, ".md")
		for i := 1; i <= maxExportNames; i++ {
			name := path
			if i > 1 {
				name = fmt.Sprintf("%s-%d.md", base, i)
			}
			f, err := safefile.Create(name, 0o600)
			switch {
			case err == nil:
				return exportedMsg{path: name, err: writeAll(f, text)}
			case !errors.Is(err, fs.ErrExist):
				return exportedMsg{path: name, err: err}
			case explicit && safefile.IsSymlink(name):
				return exportedMsg{path: name, err: &safefile.Error{Path: name, Why: "is a symbolic link, and elicit does not write through one", Fix: "choose another name"}}
			case explicit:
				return exportedMsg{path: name, exists: true, text: text}
			}
		}
		return exportedMsg{path: path, err: fmt.Errorf("%s and the next %d names are taken: name a file (/export FILE)", path, maxExportNames-1)}
	}
}

// exportReplace writes the conversation over a regular file the user
// agreed to replace (never through a symbolic link swapped in meanwhile).
func exportReplace(path, text string) tea.Cmd {
	return func() tea.Msg {
		f, err := safefile.Replace(path)
		if err != nil {
			return exportedMsg{path: path, err: err}
		}
		return exportedMsg{path: path, err: writeAll(f, text)}
	}
}

func writeAll(f *os.File, text string) error {
	_, err := f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
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
		return exportNew("elicit-"+m.now().Format("2006-01-02-150405")+".md", false, m.tr.markdown()), true
	}
	return exportNew(path, true, m.tr.markdown()), true
}

// exported handles exportedMsg: a file that exists is replaced only when
// the user says so.
func (m *Model) exported(msg exportedMsg) tea.Cmd {
	switch {
	case msg.exists:
		return m.push(newOverwriteModal(msg.path, msg.text, m.th), false)
	case msg.err != nil:
		m.tr.notice("could not export the conversation: "+sanitize.Text(msg.err.Error()), true)
	default:
		m.tr.info("conversation written to " + sanitize.Line(msg.path))
	}
	return nil
}

// overwriteModal asks before an export replaces a file; "keep it" is
// selected, so a stray Enter replaces nothing.
type overwriteModal struct {
	choiceModal
	path, text string
}

func newOverwriteModal(path, text string, th *theme.Theme) *overwriteModal {
	return &overwriteModal{path: path, text: text, choiceModal: choiceModal{
		title: "Replace the file?", th: th,
		body:    sanitize.Line(path) + " exists. Write the conversation over it?",
		choices: []choice{{"", "keep it (export again with another name)", false}, {"", "replace it", true}},
	}}
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
