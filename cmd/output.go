package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/termout"
	"github.com/elicit-dev/elicit/internal/termout/teaout"
	"github.com/elicit-dev/elicit/ui/fullscreen"
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
// sequences; a panic anywhere in the screen takes the crash path
// (fullscreen.Guard, then runScreen). The colour profile is the one
// lipgloss detected for stdout at start-up: detecting it again runs `tmux
// info` a second time inside tmux, tens of milliseconds before the first
// frame. opts come last (a test's input and output).
func newScreenProgram(m tea.Model, opts ...tea.ProgramOption) *tea.Program {
	return tea.NewProgram(teaout.Model(fullscreen.Guard(m)), append([]tea.ProgramOption{tea.WithOutput(termout.NewFile(os.Stdout, termout.Screen)),
		tea.WithColorProfile(lipgloss.Writer.Profile)}, opts...)...)
}

// runScreen runs p, a full screen on the terminal, until it ends or the
// terminal goes away: a closed terminal (SIGHUP, or a hang-up seen on the
// terminal itself when no signal comes) ends the program instead of
// killing elicit, so that the caller ends its agents after. bubbletea
// handles SIGINT and SIGTERM. Every full screen runs through it, and so
// every crash: a panic ends Run with tea.ErrProgramPanic, the terminal
// restored, and stderr says where the crash log is (the caller then ends
// the processes the screen started, as on every way out); the report of a
// fatal error goes to a crash log too.
func runScreen(p *tea.Program, stderr io.Writer) (tea.Model, error) {
	_, stopFatal := fullscreen.CatchFatal()
	defer stopFatal()
	stop := procgroup.TrapSignals(context.Background(), func(os.Signal) { p.Kill() }, syscall.SIGHUP)
	unwatch := watchHangup(os.Stdout, p.Kill)
	m, err := p.Run()
	unwatch()
	stop()
	if errors.Is(err, tea.ErrProgramPanic) {
		if path := fullscreen.CrashLog(); path != "" {
			fmt.Fprintf(textOut(stderr), "elicit crashed; the crash log is at %s\n", path)
		}
	}
	return m, err
}
