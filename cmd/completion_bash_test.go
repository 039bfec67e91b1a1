package cmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// bashCompletionPackage is where Debian's bash-completion keeps its
// functions.
const bashCompletionPackage = "/usr/share/bash-completion/bash_completion"

// completeIn runs a bash with no startup files that loads `elicit
// completion bash` (after prelude), then completes line as a Tab at its
// end would: COMP_WORDS split as bash splits them (at blanks, and at =
// and : as COMP_WORDBREAKS says), the completion function called as
// complete -p names it. It returns what bash printed: the complete -p
// line, COMPREPLY one a line, and anything on stderr.
func completeIn(t *testing.T, dir, prelude, line string) string {
	t.Helper()
	bin := elicitBinary(t)
	script := prelude + `
source <(elicit completion bash) || exit 1
complete -p elicit
line=$1
COMP_LINE=$line
COMP_POINT=${#line}
# Split as readline does: blanks separate words, and = and : are words
# of their own.
COMP_WORDS=()
w=
for ((i = 0; i < ${#line}; i++)); do
	c=${line:i:1}
	case $c in
	' ') [[ -n $w ]] && COMP_WORDS+=("$w"); w= ;;
	'=' | ':') [[ -n $w ]] && COMP_WORDS+=("$w"); COMP_WORDS+=("$c"); w= ;;
	*) w+=$c ;;
	esac
done
COMP_WORDS+=("$w")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
fn=$(complete -p elicit | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
"$fn" elicit "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf 'reply:%s\n' "${COMPREPLY[@]}"
`
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--norc", "--noprofile", "-c", script, "bash", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "XDG_CONFIG_HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	return string(out)
}

// TestBashCompletionWithoutPackage: in a bare bash (no bash-completion
// package) Tab completes subcommands, flags, a flag's value after = and
// directories for --cwd, with nothing on stderr (it printed
// "_get_comp_words_by_ref: command not found" on every Tab); and the
// same with the package loaded.
func TestBashCompletionWithoutPackage(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "somedir"), 0o700)
	os.WriteFile(filepath.Join(dir, "somefile"), nil, 0o600)
	cases := []struct {
		line string
		want []string
		not  []string
	}{
		{"elicit ver", []string{"reply:version"}, nil},
		{"elicit completion ", []string{"reply:bash", "reply:zsh", "reply:fish", "reply:powershell"}, nil},
		{"elicit --cont", []string{"reply:--continue"}, nil},
		{"elicit --transport=", []string{"reply:ws", "reply:http"}, nil},
		{"elicit -p 'a b' --transport ", []string{"reply:ws", "reply:http"}, nil},
		{"elicit --cwd some", []string{"reply:somedir"}, []string{"reply:somefile"}},
	}
	preludes := map[string]string{"bare bash": ""}
	if _, err := os.Stat(bashCompletionPackage); err == nil {
		preludes["bash-completion"] = "source " + bashCompletionPackage
	} else if strings.Contains(" "+os.Getenv("ELICIT_TEST_TOOLS")+" ", " bash-completion ") {
		t.Fatalf("%s is missing, but ELICIT_TEST_TOOLS says bash-completion is installed", bashCompletionPackage)
	} else {
		t.Logf("bash-completion is not installed: the bare bash only")
	}
	for name, prelude := range preludes {
		for _, tc := range cases {
			out := completeIn(t, dir, prelude, tc.line)
			if !strings.Contains(out, "complete -o default -F __start_elicit elicit") {
				t.Errorf("%s, %q: not registered:\n%s", name, tc.line, out)
			}
			lines := strings.Split(out, "\n")
			for _, w := range tc.want {
				if !containsLine(lines, w) {
					t.Errorf("%s, %q: no %q:\n%s", name, tc.line, w, out)
				}
			}
			for _, w := range tc.not {
				if containsLine(lines, w) {
					t.Errorf("%s, %q: %q:\n%s", name, tc.line, w, out)
				}
			}
			if strings.Contains(out, "not found") || strings.Contains(out, "bash:") {
				t.Errorf("%s, %q: an error:\n%s", name, tc.line, out)
			}
		}
	}
}

// containsLine reports a line of lines that is s, or s followed by a
// tab and a description (bash shows descriptions as "name  (desc)").
func containsLine(lines []string, s string) bool {
	for _, l := range lines {
		if l == s || strings.HasPrefix(l, s+" ") || l == s+"/" {
			return true
		}
	}
	return false
}
