package cmd

import (
	"errors"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/ui"
	"github.com/elicit-dev/elicit/ui/fullscreen"
)

// inboxScreen is `elicit inbox` with no subcommand: the full screen of
// every waiting question, answered with the keyboard.
func (a *app) inboxScreen(o inbox.Options, cfg *config.Config) int {
	stderr := textOut(a.stderr)
	fail := func(code int, msg string) int {
		fmt.Fprintln(stderr, "elicit inbox:", msg)
		return code
	}
	if !isTerminal(a.stdin) || !isTerminal(a.stdout) {
		return fail(exitUsage, "no terminal: use `elicit inbox list` and `elicit inbox answer ID` in scripts")
	}
	if dumbTerminal() {
		return fail(exitUsage, "TERM="+os.Getenv("TERM")+" cannot draw the full screen; use `elicit inbox list`, then `elicit inbox answer ID`")
	}
	settings := cfg.Settings(config.Overrides{})
	var mem ui.Memory
	top := settings.TopDomains
	if settings.History {
		h, err := history.Open(history.DefaultDir())
		if err != nil {
			fmt.Fprintln(stderr, "elicit inbox: history:", sanitize.Line(err.Error()), "(nothing is remembered this time)")
		} else {
			mem.History = h
			if sites, err := h.Sites(); err == nil {
				top = append(top, sites...) // a lookalike of the user's own sites is one
			}
		}
	}
	w, err := inbox.Watch(o)
	if err != nil {
		return fail(exitFailed, sanitize.Line(err.Error()))
	}
	cols, rows, _ := term.GetSize(os.Stdout.Fd())
	m := fullscreen.NewInbox(w, fullscreen.Options{Agent: acpconn.Config{URLs: urlcheck.NewAnalyzer(top...)}, NoColor: noColor(),
		Memory: mem, Notify: fullscreen.Notify(settings.Notify), TypingWindow: settings.TypingWindow, Theme: string(settings.Theme), Width: cols, Height: rows})
	_, err = runScreen(newScreenProgram(m), a.stderr)
	m.Close()
	if werr := m.WriteTranscript(textOut(a.stdout)); werr != nil {
		fmt.Fprintln(stderr, "elicit inbox: the log could not be printed whole:", werr)
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fail(exitFailed, err.Error())
	}
	return exitOK
}
