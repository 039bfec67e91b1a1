package cmd

import (
	"context"
	"io"
	"os"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/termout"
	"github.com/elicit-dev/elicit/internal/termout/teaout"
)

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// textOut is the one writer for a stream of text (not a full screen):
// faithful text with no escape or C1 when it is a pipe or a file, and no
// escape at all, bidi and invisible characters shown, when it is a terminal.
func textOut(w io.Writer) io.Writer {
	if !isTerminal(w) {
		return termout.New(w, termout.Pipe)
	}
	return termout.New(w, termout.Plain)
}

// styledOut is the writer for help and errors, which fang styles: SGR
// passes on a terminal, and it is still a terminal to whoever asks (fang's
// colour profile detection looks for Fd); elsewhere it is textOut.
func styledOut(w io.Writer) io.Writer {
	if !isTerminal(w) {
		return textOut(w)
	}
	return termout.NewFile(w.(*os.File), termout.Styled)
}

// screenOut is the one writer for a stream that may hold a full screen
// (`elicit form` draws on stderr): bubbletea's own sequences pass, and it is
// still a terminal to bubbletea. When w is not a terminal it is textOut.
func screenOut(w io.Writer) io.Writer {
	if !isTerminal(w) {
		return textOut(w)
	}
	return termout.NewFile(w.(*os.File), termout.Screen)
}

// newScreenProgram starts the full screen behind the output boundary: the
// view is filtered to text and SGR, the output to bubbletea's own
// sequences. The colour profile is the one lipgloss detected for stdout at
// start-up: detecting it again runs `tmux info` a second time inside tmux,
// tens of milliseconds before the first frame.
func newScreenProgram(m tea.Model) *tea.Program {
	return tea.NewProgram(teaout.Model(m), tea.WithOutput(termout.NewFile(os.Stdout, termout.Screen)),
		tea.WithColorProfile(lipgloss.Writer.Profile))
}

// runScreen runs p, a full screen on the terminal, until it ends or the
// terminal goes away: a closed terminal (SIGHUP, or a hang-up seen on the
// terminal itself when no signal comes) ends the program instead of
// killing elicit, so that the caller ends its agents after. bubbletea
// handles SIGINT and SIGTERM. Every full screen runs through it.
func runScreen(p *tea.Program) (tea.Model, error) {
	stop := procgroup.TrapSignals(context.Background(), func(os.Signal) { p.Kill() }, syscall.SIGHUP)
	unwatch := watchHangup(os.Stdout, p.Kill)
	m, err := p.Run()
	unwatch()
	stop()
	return m, err
}
