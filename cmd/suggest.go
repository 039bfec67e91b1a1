package cmd

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagError is every command's FlagErrorFunc: a usage error, with the
// flags close to an unknown one (cobra suggests commands, not flags), and
// on the root, when no flag is close, a reminder that the agent's own
// flags go after --.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := unknownFlag(msg)
	if !ok {
		return usageError{err: err, cmd: cmd}
	}
	similar := similarFlags(cmd.Flags(), name)
	msg += suggestion(similar)
	if !cmd.HasParent() && len(similar) == 0 {
		msg += "\n\nAn agent's own flags go after --: elicit [flags] -- AGENT COMMAND " + strings.TrimSpace(name)
	}
	return usageError{err: errors.New(msg), cmd: cmd}
}

// unknownFlag reads the flag out of pflag's "unknown flag: --x" and
// "unknown shorthand flag: 'x' in -xyz".
func unknownFlag(msg string) (string, bool) {
	if name, ok := strings.CutPrefix(msg, "unknown flag: "); ok {
		return name, true
	}
	if rest, ok := strings.CutPrefix(msg, "unknown shorthand flag: "); ok {
		if _, word, ok := strings.Cut(rest, " in "); ok {
			return word, true
		}
	}
	return "", false
}

// similarFlags names fs's visible flags within two edits of name, or that
// it is a prefix of.
func similarFlags(fs *pflag.FlagSet, name string) []string {
	typed := strings.TrimLeft(name, "-")
	typed, _, _ = strings.Cut(typed, "=")
	if typed == "" {
		return nil
	}
	var out []string
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if distance(typed, f.Name) <= 2 || len(typed) > 1 && strings.HasPrefix(f.Name, typed) {
			out = append(out, "--"+f.Name)
		}
	})
	return out
}

// distance is the Levenshtein distance of a and b (in bytes: flag names
// are ASCII). cobra has one but does not export it.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
