package fullscreen

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/safefile"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/theme"
)

// exportText is the conversation as markdown, ready to be written on
// another goroutine: prompts as quotes, replies as the agent wrote them,
// tool calls, plans and elicit's notes as lines. Short texts are copied;
// an agent message is a run of the transcript's log, read (from memory or
// the spool) as it is written, so writing a long session holds no copy of
// it. Everything from the agent went through the sanitizer when it arrived.
type exportText struct {
	parts []exportPart
	log   *logReader
}

// exportPart is a run of the log (n > 0), then text.
type exportPart struct {
	off, n int64
	text   string
}

// plainExport is an exportText of text alone.
func plainExport(text string) *exportText { return &exportText{parts: []exportPart{{text: text}}} }

// writeTo writes the conversation to w.
func (e *exportText) writeTo(w io.Writer) error {
	bw := bufio.NewWriterSize(w, readBuf)
	for _, p := range e.parts {
		if p.n > 0 {
			if err := e.log.writeTo(bw, p.off, p.n); err != nil {
				return err
			}
		}
		if _, err := bw.WriteString(p.text); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// export returns the conversation so far, as exportText.
func (t *transcript) export() *exportText {
	e := &exportText{log: t.log.reader()}
	var b strings.Builder
	text := func() { // what b gathered becomes a part
		if b.Len() > 0 {
			e.parts = append(e.parts, exportPart{text: b.String()})
			b.Reset()
		}
	}
	for _, it := range t.items {
		switch it.kind {
		case kindUser:
			for _, l := range strings.Split(strings.TrimRight(t.textOf(it), "\n"), "\n") {
				b.WriteString("> " + l + "\n")
			}
		case kindAgent:
			text()
			runs, tail := it.body.trimmed()
			for _, r := range runs {
				e.parts = append(e.parts, exportPart{off: r.off, n: r.n})
			}
			e.parts = append(e.parts, exportPart{text: tail + "\n"})
		case kindThought:
			continue
		case kindLines: // a server's text, as it wrote it
			b.WriteString(strings.TrimRight(t.textOf(it), "\n") + "\n")
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
			b.WriteString("_" + strings.TrimRight(t.textOf(it), "\n") + "_\n")
		}
		b.WriteString("\n")
	}
	text()
	return e
}

// markdown is the conversation as markdown, whole in memory (tests and
// short uses; a long session is written with export().writeTo).
func (t *transcript) markdown() string {
	var b strings.Builder
	if err := t.export().writeTo(&b); err != nil {
		b.WriteString("\n(the rest of the transcript could not be read back: " + sanitize.Line(err.Error()) + ")\n")
	}
	return b.String()
}

// exportedMsg reports /export. exists says an explicit FILE is there
// already: the user is asked before it is replaced.
type exportedMsg struct {
	path   string
	err    error
	exists bool
	text   *exportText // the conversation, for a replace the user agrees to
}

// maxExportNames is how many new names a default export tries
// (elicit-TIME.md, elicit-TIME-2.md, ...) before it gives up.
const maxExportNames = 100

// exportNew writes the conversation to a new file, never one that is
// there already, whatever it is (a symbolic link someone planted under
// the default name included): created exclusively. A default name that is
// taken gives way to the next; an explicit one the user named is reported
// as existing, to be asked about.
func exportNew(path string, explicit bool, text *exportText) tea.Cmd {
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
func exportReplace(path string, text *exportText) tea.Cmd {
	return func() tea.Msg {
		f, err := safefile.Replace(path)
		if err != nil {
			return exportedMsg{path: path, err: err}
		}
		return exportedMsg{path: path, err: writeAll(f, text)}
	}
}

func writeAll(f *os.File, text *exportText) error {
	err := text.writeTo(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
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
type overwriteModal struct{ choiceModal }

func newOverwriteModal(path string, text *exportText, th *theme.Theme) *overwriteModal {
	keep := keepAct{path}
	return &overwriteModal{choiceModal{
		title: "Replace the file?", th: th, asks: "whether to replace " + sanitize.Line(path), esc: keep,
		body:    sanitize.Line(path) + " exists. Write the conversation over it?",
		choices: []choice{{"", "keep it (export again with another name)", keep}, {"", "replace it", replaceAct{path, text}}},
	}}
}

// Transcript is the conversation as markdown, whole in memory (see
// WriteTranscript).
func (m *Model) Transcript() string { return m.tr.markdown() }

// WriteTranscript writes the conversation as markdown to w, for the
// normal screen when the full screen ends, so it stays in the scrollback;
// a long session's older text is read back from its file a piece at a
// time. It is the transcript's last use: its file goes once it is written.
func (m *Model) WriteTranscript(w io.Writer) error {
	err := m.tr.export().writeTo(w)
	m.tr.close()
	return err
}
