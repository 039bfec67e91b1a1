package cmd

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
	// argv is the command line being run; args what the tree reads of it
	// (resumeArgs), and root the tree.
	argv, args []string
	root       *cobra.Command
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
// the message points at the help of the command it is about.
type usageError struct {
	err error
	// cmd is the command the error is about; nil: the one the command
	// line names (errorCommand).
	cmd *cobra.Command
}

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usageError.
func usagef(format string, args ...any) error {
	return usageError{err: fmt.Errorf(format, args...)}
}

// Main runs elicit with args (the command line without the program's
// name) and returns its exit status once every process elicit started has
// ended (endAll, lifetime.go). ELICIT_CPUPROFILE=FILE writes a CPU profile
// of the run, ELICIT_MEMPROFILE=FILE its allocations (profile.go).
func Main(args []string) int {
	stop := startProfiles()
	defer stop()
	return endAll(func() int { return execute(context.Background(), newApp(os.Stdin, os.Stdout, os.Stderr), args) })
}

// execute runs the command tree on args and returns the exit status.
func execute(ctx context.Context, a *app, args []string) int {
	a.argv = args
	root := newRootCommand(a)
	a.root, a.args = root, resumeArgs(root, args)
	root.SetArgs(a.args)
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
		fang.WithoutManpage(), // manpage.go writes it
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
// would end a suggested flag), one plain "elicit CMD: ..." line elsewhere
// (scripts read it). A usage error points at its command's help.
func (a *app) printError(w io.Writer, styles fang.Styles, err error) {
	path := a.errorCommand(err).CommandPath()
	if isTerminal(a.stderr) {
		fmt.Fprintln(w, styles.ErrorHeader.String())
		fmt.Fprintln(w, styles.ErrorText.Render(err.Error()))
		fmt.Fprintln(w)
		if isUsage(err) {
			fmt.Fprintln(w, lipgloss.JoinHorizontal(lipgloss.Left,
				styles.ErrorText.UnsetWidth().Render("Try"),
				styles.Program.Flag.Render(" "+path+" --help "),
				styles.ErrorText.UnsetWidth().UnsetMargins().UnsetTransform().Render("for usage.")))
			fmt.Fprintln(w)
		}
		return
	}
	fmt.Fprintf(w, "%s: %v\n", path, err)
	if isUsage(err) {
		fmt.Fprintf(w, "Try '%s --help' for usage.\n", path)
	}
}

// errorCommand is the command err is about: the one the usage error
// names, else the one the command line names. An error of the help
// command is about the root, whose help lists the commands.
func (a *app) errorCommand(err error) *cobra.Command {
	var u usageError
	c := a.root
	if errors.As(err, &u) && u.cmd != nil {
		c = u.cmd
	} else if found, _, ferr := a.root.Find(a.args); ferr == nil && found != nil {
		c = found
	}
	if c.Name() == "help" && c.Parent() == a.root {
		return a.root
	}
	return c
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
