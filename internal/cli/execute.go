package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"charm.land/fang/v2"
	"charm.land/lipgloss/v2"
	"github.com/spf13/cobra"
)

// Exit statuses shared by every command (the root help and the README
// list them).
const (
	exitOK          = 0
	exitFailed      = 1
	exitUsage       = 2
	exitTimeout     = 124
	exitInterrupted = 130
)

// app is what the commands share: the standard streams and the exit
// status the command that ran chose.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// code is the exit status a command set with exit.
	code int
	// session runs a session with an agent once the command line is read;
	// tests replace it to see what the command line made of the arguments.
	session func(sessionRequest) int
	// scheme is the colour scheme fang chose for its help, so the flag
	// groups drawn after it match.
	scheme *fang.ColorScheme
	// helpReady is set once the grouped help wraps fang's (help.go).
	helpReady bool
	// argv is the command line being run.
	argv []string
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	a.session = a.runSession
	return a
}

// exit ends the command with status code: the command has said what
// there was to say, so nothing else is printed.
func (a *app) exit(code int) error {
	a.code = code
	return nil
}

// usageError is a command line elicit cannot read: exit status 2, and
// fang adds "Try --help for usage".
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usageError.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// usageArgs makes an Args validator's error a usage error.
func usageArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}

// Main runs elicit with args (the command line without the program's
// name) and returns its exit status. ELICIT_CPUPROFILE=FILE writes a CPU
// profile of the run, ELICIT_MEMPROFILE=FILE its allocations (profile.go).
func Main(args []string) int {
	stop := startProfiles()
	code := execute(context.Background(), newApp(os.Stdin, os.Stdout, os.Stderr), args)
	stop()
	return code
}

// execute runs the command tree on args and returns the exit status.
func execute(ctx context.Context, a *app, args []string) int {
	a.argv = args
	root := newRootCommand(a)
	root.SetArgs(resumeArgs(root, args))
	root.SetIn(a.stdin)
	root.SetOut(styledOut(a.stdout))
	root.SetErr(styledOut(a.stderr))
	info := readVersion()
	err := fang.Execute(ctx, root,
		fang.WithVersion(info.Version),
		fang.WithCommit(info.Commit),
		fang.WithColorSchemeFunc(func(c lipgloss.LightDarkFunc) fang.ColorScheme {
			cs := fang.DefaultColorScheme(c)
			a.scheme = &cs
			return cs
		}),
		fang.WithErrorHandler(a.printError),
	)
	switch {
	case err == nil:
		return a.code
	case isUsage(err):
		return exitUsage
	}
	return exitFailed
}

// printError is fang's error handler: fang's styled error on a terminal
// (as fang.DefaultErrorHandler draws it, less the full stop it adds, which
// would end a suggested flag), one plain "elicit: ..." line elsewhere
// (scripts read it).
func (a *app) printError(w io.Writer, styles fang.Styles, err error) {
	if isTerminal(a.stderr) {
		fmt.Fprintln(w, styles.ErrorHeader.String())
		fmt.Fprintln(w, styles.ErrorText.Render(err.Error()))
		fmt.Fprintln(w)
		if isUsage(err) {
			fmt.Fprintln(w, lipgloss.JoinHorizontal(lipgloss.Left,
				styles.ErrorText.UnsetWidth().Render("Try"),
				styles.Program.Flag.Render(" --help "),
				styles.ErrorText.UnsetWidth().UnsetMargins().UnsetTransform().Render("for usage.")))
			fmt.Fprintln(w)
		}
		return
	}
	fmt.Fprintln(w, "elicit:", err)
	if isUsage(err) {
		fmt.Fprintln(w, "Try 'elicit --help' for usage.")
	}
}

// isUsage reports a usage error: ours, or cobra's and pflag's, which
// have no type of their own (fang reads them the same way).
func isUsage(err error) bool {
	var u usageError
	if errors.As(err, &u) {
		return true
	}
	s := err.Error()
	for _, prefix := range []string{"flag needs an argument:", "unknown flag:", "unknown shorthand flag:", "unknown command", "invalid argument", "bad flag syntax"} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
