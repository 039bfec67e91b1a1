package cmd

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// resumeArgs rewrites a bare --resume (followed by nothing, by "--" or by
// another flag) to "--resume=", which settle reads as the most recent
// session; any other --resume takes the following word as its ID. It is
// written by hand because pflag has no flag whose value is optional yet
// read from the next word: with NoOptDefVal a value must follow "=".
// Words that are another flag's value (-p --resume) are skipped, with the
// flags of the command the arguments name; nothing after "--" is touched.
func resumeArgs(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd.Flags().Lookup("resume") == nil {
		return args
	}
	fs := cmd.Flags()
	out := slices.Clone(args)
	for i := 0; i < len(out); i++ {
		w := out[i]
		switch {
		case w == "--":
			return out
		case w == "--resume":
			if i+1 == len(out) || isFlagWord(out[i+1]) {
				out[i] = "--resume="
			} else {
				i++ // the ID
			}
		case strings.HasPrefix(w, "--"):
			name, _, hasValue := strings.Cut(w[2:], "=")
			if f := fs.Lookup(name); f != nil && !hasValue && f.NoOptDefVal == "" {
				i++ // its value
			}
		case isFlagWord(w):
			// A cluster of shorthands: the first that takes a value takes
			// the rest of the word, or the next word when it is last.
			for j := 1; j < len(w); j++ {
				f := fs.ShorthandLookup(w[j : j+1])
				if f == nil {
					break
				}
				if f.NoOptDefVal == "" {
					if j == len(w)-1 {
						i++
					}
					break
				}
			}
		}
	}
	return out
}

// isFlagWord reports a word that pflag reads as a flag or as "--" ("-"
// alone is an argument: stdin).
func isFlagWord(w string) bool {
	return len(w) > 1 && w[0] == '-'
}
