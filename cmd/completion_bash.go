package cmd

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// cobra's bash script (GenBashCompletionV2) calls two functions of the
// bash-completion package, _get_comp_words_by_ref and _filedir: in a bash
// without that package (a bare bash, macOS's bash 3, a container) every
// Tab printed "_get_comp_words_by_ref: command not found". The script
// elicit prints calls elicit's own two instead, which use the package's
// when it is loaded and stand in for them otherwise. cobra has no option
// for this, and no library ships the stand-ins: they are written here,
// doing what cobra's script asks of the package (words rejoined at = and
// :, as -n =: asks; files and directories from compgen).
const bashFallbacks = `
# elicit: cobra's script calls _get_comp_words_by_ref and _filedir, which
# come with the bash-completion package. These use them when it is
# loaded, and stand in for them in a bash without it.
__elicit_comp_words()
{
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref "$@" cur prev words cword
        return
    fi
    # COMP_WORDS up to the cursor, a word bash split at = or : joined
    # again (no blank between the pieces), as -n =: asks.
    local i w rest line=${COMP_LINE:0:COMP_POINT}
    words=()
    cword=0
    for ((i = 0; i <= COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]-}
        rest=${line#"${line%%[![:space:]]*}"}
        if ((i == COMP_CWORD)); then
            w=$rest
        fi
        if ((i > 0 && ${#rest} == ${#line})) && [[ $w == [=:]* || ${words[cword]} == *[=:] ]]; then
            words[cword]+=$w
        else
            if ((i > 0)); then
                ((cword++))
            fi
            words[cword]=$w
        fi
        line=${rest:${#w}}
    done
    cur=${words[cword]}
    prev=
    if ((cword > 0)); then
        prev=${words[cword-1]}
    fi
}

__elicit_filedir()
{
    if declare -F _filedir >/dev/null 2>&1; then
        _filedir "$@"
        return
    fi
    local IFS=$'\n' ext
    COMPREPLY=($(compgen -d -- "$cur"))
    if [[ ${1-} != -d ]]; then
        if [[ -z ${1-} ]]; then
            COMPREPLY+=($(compgen -f -- "$cur"))
        else
            for ext in ${1//|/$'\n'}; do
                COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur"))
            done
        fi
    fi
    compopt -o filenames 2>/dev/null
    return 0
}
`

// bashCalls are the package's functions in cobra's script, and what
// replaces each.
var bashCalls = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`_get_comp_words_by_ref "\$@" cur prev words cword`), `__elicit_comp_words "$@"`},
	{regexp.MustCompile(`\b_filedir\b`), `__elicit_filedir`},
}

// bashCompletion makes `elicit completion bash` print cobra's script with
// the calls replaced and the stand-ins added.
func bashCompletion(c *cobra.Command) {
	c.RunE = func(cmd *cobra.Command, args []string) error {
		noDesc, _ := cmd.Flags().GetBool("no-descriptions")
		var b bytes.Buffer
		if err := cmd.Root().GenBashCompletionV2(&b, !noDesc); err != nil {
			return err
		}
		script, err := withBashFallbacks(b.String())
		if err != nil {
			return err
		}
		_, err = fmt.Fprint(cmd.OutOrStdout(), script)
		return err
	}
}

// withBashFallbacks rewrites cobra's script; a script without the calls
// it expects (cobra changed) is an error, not a script that half works.
func withBashFallbacks(script string) (string, error) {
	for _, c := range bashCalls {
		if !c.re.MatchString(script) {
			return "", fmt.Errorf("cobra's bash script has no %s: the completion stand-ins need updating", c.re)
		}
		script = c.re.ReplaceAllLiteralString(script, c.with)
	}
	head, rest, ok := strings.Cut(script, "\n")
	if !ok {
		return "", fmt.Errorf("cobra's bash script is one line")
	}
	return head + "\n" + bashFallbacks + rest, nil
}
