package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/ui/fullscreen"
)

// mcpScreen is `elicit mcp` with no subcommand: the full screen.
func (a *app) mcpScreen(o mcpOptions, cfg mcpconn.Config) int {
	stderr := textOut(a.stderr)
	fail := func(code int, msg string) int {
		fmt.Fprintln(stderr, "elicit mcp:", msg)
		return code
	}
	if !isTerminal(a.stdin) || !isTerminal(a.stdout) {
		return fail(exitUsage, "no terminal: use `elicit mcp tools` or `elicit mcp call TOOL` in scripts")
	}
	if dumbTerminal() {
		return fail(exitUsage, "TERM="+os.Getenv("TERM")+" cannot draw the full screen; use `elicit mcp tools`, then `elicit mcp call TOOL`, which asks with line prompts")
	}
	var answers map[string]json.RawMessage
	if o.answers != "" {
		var err error
		if answers, err = readAnswers(o.answers); err != nil {
			return fail(exitUsage, answersError(o.answers, err).Error())
		}
	}
	st, err := a.mcpSetup(o, &cfg)
	if err != nil {
		return fail(exitUsage, err.Error())
	}
	defer st.close()
	procgroup.HoldSignals() // see prepare
	w, h, _ := term.GetSize(os.Stdout.Fd())
	sv := publishMCP(st, cfg, stderr)
	defer sv.Close()
	m := fullscreen.NewMCP(cfg, fullscreen.Options{TypingWindow: st.settings.TypingWindow, AutoRetry: o.autoRetry, Answers: answers, NoColor: noColor(), Memory: st.memory,
		Theme: string(st.settings.Theme), Width: w, Height: h, Share: sv.ShareOrNil()})
	p := newScreenProgram(m)
	_, err = runScreen(p, a.stderr)
	m.Close()
	if werr := m.WriteTranscript(textOut(a.stdout)); werr != nil {
		fmt.Fprintln(stderr, "elicit mcp: the transcript could not be printed whole:", werr)
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		fmt.Fprintln(stderr, "elicit mcp:", err)
		return exitFailed
	}
	return exitOK
}
