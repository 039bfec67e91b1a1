package cmd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// A command's Args says, in a sentence, what to give when the count is
// wrong: cobra's own validators say "accepts 1 arg(s), received 0". The
// errors are usage errors (exit 2) that name their command, so the
// message starts with it and points at its help.

// needArgs takes min to max arguments (max < 0: any number from min).
// Too few is answered with give, a sentence that says what to give and
// shows it ("give the host's URL: elicit attach ws://..."); too many
// with "one NOUN, not 3: ..." (noun is what one argument is).
func needArgs(min, max int, noun, give string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < min:
			return usageError{err: fmt.Errorf("%s", give), cmd: cmd}
		case max >= 0 && len(args) > max:
			return usageError{err: fmt.Errorf("one %s, not %d: %s", noun, len(args), quoteAll(args)), cmd: cmd}
		}
		return nil
	}
}

// noArgs takes no arguments: a word after a command with subcommands is
// an unknown command, with the commands it has and the one close to the
// word; after any other, an argument it does not take.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if !cmd.HasAvailableSubCommands() {
		return usageError{err: fmt.Errorf("unexpected argument %s (it takes none)", quoteAll(args)), cmd: cmd}
	}
	var names []string
	for _, s := range cmd.Commands() {
		if s.IsAvailableCommand() {
			names = append(names, s.Name())
		}
	}
	return usageError{err: fmt.Errorf("unknown command %q (its commands: %s)%s", args[0], strings.Join(names, ", "),
		suggestion(cmd.SuggestionsFor(args[0]))), cmd: cmd}
}

// quoteAll quotes each argument, separated by spaces.
func quoteAll(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = strconv.Quote(a)
	}
	return strings.Join(q, " ")
}
