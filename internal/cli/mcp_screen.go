package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/ui/mcpui"
)

// mcpScreen is `elicit mcp` with no sub-command: the full screen.
func mcpScreen(cmd *cobra.Command, f mcpFlags, argv []string) int {
	if !term.IsTerminal(os.Stdin.Fd()) || !term.IsTerminal(os.Stdout.Fd()) {
		return mcpUsageCode(cmd, "no terminal: use `elicit mcp tools` or `elicit mcp call TOOL` in scripts")
	}
	if dumbTerminal() {
		return mcpUsageCode(cmd, "TERM="+os.Getenv("TERM")+" cannot draw the full screen; use `elicit mcp call TOOL`, which asks with line prompts there")
	}
	cfg, closeLog, code := mcpServer(cmd, f, argv)
	if code != 0 {
		return code
	}
	defer closeLog()
	st, code := mcpMemory(cmd, f)
	if code != 0 {
		return code
	}
	defer st.close()
	o := mcpui.Options{Server: cfg, AutoRetry: f.autoRetry, NoColor: noColor(), Memory: st.memory, Theme: string(st.settings.Theme)}
	if f.answers != "" {
		answers, err := readAnswers(f.answers)
		if err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), "elicit: --answers:", err)
			return 2
		}
		o.Answers = answers
	}
	o.Width, o.Height, _ = term.GetSize(os.Stdout.Fd())
	defer procgroup.Default.Shutdown()
	m := mcpui.New(o)
	p := newScreenProgram(m)
	// A closed terminal (SIGHUP) ends the program, so the server is ended
	// below (bubbletea handles SIGINT and SIGTERM).
	stop := procgroup.TrapSignals(context.Background(), func(os.Signal) { p.Kill() }, syscall.SIGHUP)
	_, err := p.Run()
	stop()
	m.Close()
	procgroup.Default.Shutdown()
	io.WriteString(textOut(os.Stdout), m.Transcript())
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		fmt.Fprintln(textOut(os.Stderr), "elicit:", err)
		return 1
	}
	return 0
}
